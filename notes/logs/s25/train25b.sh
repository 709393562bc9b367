# Session 25, a few more fine-tuning settings after train25.sh (same gate).
cd /work/data/s25
B=../bastion-s25
cat nn25-tr.csv nn25-tr.csv sp25-tr.csv > nn2sp25-tr.csv
ev() { for v in g25-val.csv m25-val.csv m25b-val.csv; do printf " %s %s" ${v%-val.csv} $($B nnue train --data tiny.csv --validation $v --out /tmp/x.nnue --init "$1" --epochs 1 --lr 1e-12 --batch 4096 2>&1 | grep 'starting network' | awk '{print $NF}'); done; echo; }
for cfg in "nn25 3 0.0001" "nn25 5 0.00005" "nn2sp25 3 0.00005" "nn2sp25 3 0.0001"; do
  set -- $cfg
  o=c12-$1-e$2-lr$3
  $B nnue train --data $1-tr.csv --validation m25-val.csv --out $o.nnue --init '<internal>' --epochs $2 --batch 4096 --lr $3 --threads 2 > train-$o.log 2>&1
  echo "$o $(ev $o.nnue)"
done
date
