# Session 48 (rule48.md): T48 from random weights on pool units 4502-4523 and 4701-4704,
# held-out loss on val45.csv. Run in /work/data/s48 with the pool stopped: `bash train48.sh`.
set -e
cd ${DIR:-/work/data/s48}
B=/work/data/s47/bastion-pgo-fused
[ -f val45.csv ] || cp /work/data/s46/val45.csv .
if [ ! -f tr48.csv ]; then
  ls /work/data/pool/sp-45*.csv /work/data/pool/sp-47*.csv | grep -v sp-4501 > units48.txt
  cat $(cat units48.txt) > tr48.csv
fi
s=$(date +%s)
$B nnue train --data tr48.csv --validation val45.csv --out T48.nnue --epochs 12 --batch 16384 --lr 0.001 \
  --threads 2 --mirror-files > train-T48.log 2>&1
echo "T48: $(( $(date +%s) - s )) s, $(wc -l < tr48.csv) positions" >> time48.txt
