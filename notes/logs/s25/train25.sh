# Session 25: fine-tune c11 (built in) on the new data and gate on the new held-out sets.
cd /work/data/s25
while [ ! -f lab25b.done ]; do sleep 5; done
B=../bastion-s25
head -200 m25-val.csv > tiny.csv
cat n25-tr.csv n25b-tr.csv > nn25-tr.csv
cat n25-tr.csv n25b-tr.csv sp25-tr.csv > nnsp25-tr.csv
ev() { for v in g25-val.csv m25-val.csv m25b-val.csv; do printf " %s %s" ${v%-val.csv} $($B nnue train --data tiny.csv --validation $v --out /tmp/x.nnue --init "$1" --epochs 1 --lr 1e-12 --batch 4096 2>&1 | grep 'starting network' | awk '{print $NF}'); done; echo; }
echo "c8 $(ev c8.nnue)"
echo "c11 $(ev '<internal>')"
for cfg in "n25 3 0.00005" "nn25 3 0.00005" "nnsp25 3 0.00005" "nn25 2 0.00003"; do
  set -- $cfg
  o=c12-$1-e$2-lr$3
  $B nnue train --data $1-tr.csv --validation m25-val.csv --out $o.nnue --init '<internal>' --epochs $2 --batch 4096 --lr $3 --threads 2 > train-$o.log 2>&1
  echo "$o $(ev $o.nnue)"
done
date
echo done > train25.done
