# Session 48 (rule48c.md): U48 from random weights on every complete pool unit but 4501, 16 epochs.
# Waits for the pool to stop (touch /work/data/pool/STOP first). Run in /work/data/s48:
# `bash train48c.sh`; after an interruption `RESUME=--resume bash train48c.sh` (same data file).
set -e
cd ${DIR:-/work/data/s48}
B=/work/data/s47/bastion-pgo-fused
while pgrep -f "pool45.sh|tune --generate" > /dev/null; do sleep 20; done
[ -f val45.csv ] || cp /work/data/s46/val45.csv .
if [ ! -f tr48c.csv ]; then
  ls /work/data/pool/sp-45*.csv /work/data/pool/sp-47*.csv | grep -v sp-4501 > units48c.txt
  cat $(cat units48c.txt) > tr48c.csv
fi
s=$(date +%s)
$B nnue train --data tr48c.csv --validation val45.csv --out U48.nnue --epochs 16 --batch 16384 --lr 0.001 \
  --threads 2 --mirror-files $RESUME >> train-U48.log 2>&1
echo "U48: $(( $(date +%s) - s )) s, $(wc -l < tr48c.csv) positions" >> time48.txt
