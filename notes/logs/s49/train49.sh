# Session 49 (rule49b.md): V49, 768 hidden units, on U48's data. Run in /work/data/s49 with the
# pool stopped: `bash train49.sh` (RESUME=--resume continues it).
# Session 51 added overrides, defaults unchanged: DIR, B, OUT, EPOCHS, LR, LAMBDA (default 0.75),
# INIT (a network to fine-tune, e.g. INIT=/work/data/s50/V49.nnue).
set -e
cd ${DIR:-/work/data/s49}
B=${B:-/work/data/s49/bastion-h768}
OUT=${OUT:-V49}
s=$(date +%s)
$B nnue train --data /work/data/s48/tr48c.csv --validation /work/data/s48/val45.csv --out $OUT.nnue \
  --epochs ${EPOCHS:-16} --batch 16384 --lr ${LR:-0.001} --lambda ${LAMBDA:-0.75} ${INIT:+--init $INIT} \
  --threads 2 --mirror-files $RESUME >> train-$OUT.log 2>&1
echo "$OUT: $(( $(date +%s) - s )) s" >> time${TIMES:-49}.txt
