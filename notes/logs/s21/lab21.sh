cd /work/data

B=./bastion-s20
date
$B nnue label --data s21b.csv --out s21b-r4.csv --depth 8 --random-plies 4 --seed 2101 --threads 2 > lab21b.log 2>&1
date
$B nnue label --data s21c.csv --out s21c-r8.csv --depth 8 --random-plies 8 --seed 2102 --threads 2 > lab21c.log 2>&1
date
echo done > lab21.done
for f in s21b-r4 s21c-r8; do awk -F, 'NF>=4 && $3 % 10 == 0' $f.csv > $f-val.csv; awk -F, 'NF>=4 && $3 % 10 != 0' $f.csv > $f-tr.csv; done
cat s21b-r4-val.csv s21c-r8-val.csv > m4-val.csv
cat s21b-r4-tr.csv s21c-r8-tr.csv > n5-tr.csv
cat r4y-tr.csv n5-tr.csv > r5y-tr.csv
cat all3-val.csv m4-val.csv > all4-val.csv
wc -l s21b-r4.csv s21c-r8.csv m4-val.csv n5-tr.csv r5y-tr.csv
ev() { for v in g-val.csv m-val.csv g2-val.csv m2-val.csv g3-val.csv m3-val.csv m4-val.csv; do printf " %s %s" $v $($B nnue train --data tiny.csv --validation $v --out /tmp/x.nnue --init "$1" --epochs 1 --lr 1e-12 --batch 4096 2>&1 | grep 'starting network' | awk '{print $NF}'); done; echo; }
echo "c8 $(ev '<internal>')"
for cfg in "r5y 3 0.00005" "r5y 2 0.00003" "n5 3 0.00003"; do
  set -- $cfg
  o=c10-$1-e$2-lr$3
  date
  $B nnue train --data $1-tr.csv --validation all4-val.csv --out $o.nnue --init '<internal>' --epochs $2 --batch 4096 --lr $3 --threads 2 > train-$o.log 2>&1
  echo "$o $(ev $o.nnue)"
done
date
echo done > train21.done
