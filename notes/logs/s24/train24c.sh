cd /work/data/s24
while [ ! -f lab24.done ]; do sleep 5; done
B=../bastion-s23
awk -F, 'NF>=4 && $3 % 10 == 0' s24-d7r6.csv > ../m5-val.csv
awk -F, 'NF>=4 && $3 % 10 != 0' s24-d7r6.csv > n6-tr.csv
cat ../r5y-tr.csv n6-tr.csv > r6-tr.csv
cat ../r5y-tr.csv n6-tr.csv n6-tr.csv > r6x-tr.csv
wc -l s24-d7r6.csv ../m5-val.csv n6-tr.csv r6-tr.csv r6x-tr.csv
T=../tiny.csv
ev() { for v in g-val.csv m-val.csv g2-val.csv m2-val.csv g3-val.csv m3-val.csv m4-val.csv m5-val.csv; do printf " %s %s" ${v%-val.csv} $($B nnue train --data $T --validation ../$v --out /tmp/x.nnue --init "$1" --epochs 1 --lr 1e-12 --batch 4096 2>&1 | grep 'starting network' | awk '{print $NF}'); done; echo; }
echo "c8 $(ev '<internal>')"
for cfg in "r6 3 0.00005" "n6 2 0.00003" "r6x 3 0.00005" "n6 3 0.00005"; do
  set -- $cfg
  o=c11-$1-e$2-lr$3
  $B nnue train --data $1-tr.csv --validation ../m4-val.csv --out $o.nnue --init '<internal>' --epochs $2 --batch 4096 --lr $3 --threads 2 > train-$o.log 2>&1
  echo "$o $(ev $o.nnue)"
done
date
echo done > train24c.done
