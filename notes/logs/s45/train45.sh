# Session 45 (rule45.md): n2's held-out loss, then F (fine-tune of n2) and S (from scratch) on the
# pool's training units. Run in /work/data/s45 once the pool is stopped.
set -e
cd ${DIR:-/work/data/s45}
B=/work/data/s44/bastion-pgo
[ -f val45.csv ] || awk -F, '{print $1","$2","$3}' /work/data/pool/sp-4501.csv > val45.csv
ls /work/data/pool/sp-*.csv | grep -v sp-4501 > units45.txt
cat $(cat units45.txt) > tr45.csv
head -2000 tr45.csv > tiny45.csv
echo "n2 held-out: $($B nnue train --data tiny45.csv --validation val45.csv --out /tmp/x.nnue --init '<internal>' \
  --epochs 1 --lr 1e-12 --batch 4096 2>&1 | grep 'starting network' | awk '{print $NF}')" > n2-45.txt
s=$(date +%s)
$B nnue train --data tr45.csv --validation val45.csv --out F45.nnue --init '<internal>' --epochs 4 --batch 4096 \
  --lr 0.0001 --threads 2 > train-F45.log 2>&1
echo "F: $(( $(date +%s) - s )) s" >> time45.txt
s=$(date +%s)
$B nnue train --data tr45.csv --validation val45.csv --out S45.nnue --epochs 10 --batch 16384 --lr 0.001 \
  --threads 2 --mirror-files > train-S45.log 2>&1
echo "S: $(( $(date +%s) - s )) s" >> time45.txt
date > train45.done
