cd /work/data
while [ ! -f lab20.done ]; do sleep 5; done
B=./bastion-s20
for f in s20a-d8 s20b-r4 s20c-r8; do awk -F, 'NF>=4 && $3 % 10 == 0' $f.csv > $f-val.csv; awk -F, 'NF>=4 && $3 % 10 != 0' $f.csv > $f-tr.csv; done
cp s20a-d8-val.csv g3-val.csv; cat s20b-r4-val.csv s20c-r8-val.csv > m3-val.csv
cat all2-val.csv g3-val.csv m3-val.csv > all3-val.csv
cat s20a-d8-tr.csv s20b-r4-tr.csv s20c-r8-tr.csv s20b-r4-tr.csv s20c-r8-tr.csv > n4x-tr.csv
cat r3y-tr.csv n4x-tr.csv > r4y-tr.csv
wc -l s20a-d8.csv s20b-r4.csv s20c-r8.csv g3-val.csv m3-val.csv n4x-tr.csv r4y-tr.csv
ev() { for v in g-val.csv m-val.csv g2-val.csv m2-val.csv g3-val.csv m3-val.csv; do printf " %s %s" $v $($B nnue train --data tiny.csv --validation $v --out /tmp/x.nnue --init "$1" --epochs 1 --lr 1e-12 --batch 4096 2>&1 | grep 'starting network' | awk '{print $NF}'); done; echo; }
echo "c8 $(ev '<internal>')"
for cfg in "r4y 3 0.00005" "r4y 2 0.00003" "n4x 3 0.00003" "r4y 3 0.00003"; do
  set -- $cfg
  o=c9-$1-e$2-lr$3
  date
  $B nnue train --data $1-tr.csv --validation all3-val.csv --out $o.nnue --init '<internal>' --epochs $2 --batch 4096 --lr $3 --threads 2 > train-$o.log 2>&1
  echo "$o $(ev $o.nnue)"
done
date
echo done > train20.done
