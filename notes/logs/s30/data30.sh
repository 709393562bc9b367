# Session 30: a data round from n2's self-play, as session 28's data28.sh did from c11's.
# n2 (bastion-s29, built in) plays 15,000 self-play games at 2,000 nodes, then one depth-7
# moved-on round (round26-lib.sh). Run in /work/data/s30.
# Usage: bash data30.sh N GEN_SEED LABEL_SEED  (session 30: `30 3001 3002`, then `30b 3003 3004`)
cd /work/data/s30
B=../bastion-s29
$B tune --generate 15000 --data ../sp$1.csv --nodes 2000 --threads 2 --seed $2 --scores > gen$1.log 2>&1
. /work/main/notes/logs/s26/round26-lib.sh
moved_on_round $1 $3 lab$1.log
wc -l ../sp$1.csv s$1-d7r8.csv m$1-val.csv n$1-tr.csv sp$1-tr.csv
date
echo done > data$1.done
