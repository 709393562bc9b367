# Session 46 (rule46.md): S512 (exp-512 build) or S256 (shipped build) from random weights on
# every complete pool unit but 4501, held-out loss on val45.csv. Run in /work/data/s46 with the
# pool stopped: `bash train46.sh 512` or `bash train46.sh 256`.
set -e
cd ${DIR:-/work/data/s46}
case $1 in
  512) B=/work/data/s46/bastion-512-pgo ;;
  256) B=/work/data/s44/bastion-pgo ;;
  *) echo "usage: train46.sh 512|256" >&2; exit 2 ;;
esac
[ -f val45.csv ] || awk -F, '{print $1","$2","$3}' /work/data/pool/sp-4501.csv > val45.csv
if [ ! -f tr46.csv ]; then
  ls /work/data/pool/sp-*.csv | grep -v sp-4501 > units46.txt
  cat $(cat units46.txt) > tr46.csv
fi
s=$(date +%s)
$B nnue train --data tr46.csv --validation val45.csv --out S$1.nnue --epochs 10 --batch 16384 --lr 0.001 \
  --threads 2 --mirror-files > train-S$1.log 2>&1
echo "S$1: $(( $(date +%s) - s )) s, $(wc -l < tr46.csv) positions" >> time46.txt
