# Session 41, step 0 of rule41.md: n2 with zero-initialised threat inputs, fine-tuned exactly as
# session 40's control p0 (its data and held-out set), at two learning rates. Run in /work/data/s41
# with bastion-s41 (a build with threat inputs) and ../s40/{tr-p0,val-odd}.csv present.
set -e
cd ${DIR:-/work/data/s41}
for lr in 0.0001 0.0003; do
  ./bastion-s41 nnue train --data ../s40/tr-p0.csv --validation ../s40/val-odd.csv --out t-$lr.nnue \
    --init '<internal>' --threats --epochs 4 --batch 4096 --lr $lr --threads 2 > train-t-$lr.log 2>&1
done
date > train41.done
