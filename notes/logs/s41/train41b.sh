# Session 41, step 0 of rule41b.md: the control q0, the square layout tq and the compact layout cq,
# all fine-tuned from n2 on tr-p0.csv plus 30,000 new games. Run in /work/data/s41 with bastion-s41
# (square layout), bastion-s41c (compact layout, the build of notes/logs/s41/compact41.diff on top
# of the square layout) and ../s40/{tr-p0,val-odd}.csv present.
set -e
cd ${DIR:-/work/data/s41}
[ -f sp41.csv ] || ./bastion-s41 tune --generate 30000 --nodes 2000 --threads 2 --scores --seed 4101 --data sp41.csv
cat ../s40/tr-p0.csv sp41.csv > tr41.csv
train() { $1 nnue train --data tr41.csv --validation ../s40/val-odd.csv --out $2.nnue --init '<internal>' \
  --epochs 4 --batch 4096 --lr 0.0001 --threads 2 $3 > train-$2.log 2>&1; }
train ./bastion-s41 q0
train ./bastion-s41 tq --threats
train ./bastion-s41c cq --threats
date > train41b.done
