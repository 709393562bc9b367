# Session 49 (rule49b.md): V49, 768 hidden units, on U48's data. Run in /work/data/s49 with the
# pool stopped: `bash train49.sh` (RESUME=--resume continues it).
set -e
cd /work/data/s49
B=/work/data/s49/bastion-h768
s=$(date +%s)
$B nnue train --data /work/data/s48/tr48c.csv --validation /work/data/s48/val45.csv --out V49.nnue \
  --epochs 16 --batch 16384 --lr 0.001 --threads 2 --mirror-files $RESUME >> train-V49.log 2>&1
echo "V49: $(( $(date +%s) - s )) s" >> time49.txt
