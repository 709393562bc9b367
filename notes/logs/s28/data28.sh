# Session 28, the time left after the games: more data for a later round, as session 27's
# data27.sh did (not used this session). c11 self-play, 15,000 games, then one depth-7 moved-on
# round (round26-lib.sh). Run in /work/data/s28.
# Usage: bash data28.sh N GEN_SEED LABEL_SEED  (session 28: `28 2801 2802`, then `28b 2803 2804`)
# Later sessions reuse it: DIR and B override the folder and the binary (session 30: data30.sh).
cd ${DIR:-/work/data/s28}
B=${B:-../bastion-s28}
$B tune --generate 15000 --data ../sp$1.csv --nodes 2000 --threads 2 --seed $2 --scores > gen$1.log 2>&1
. /work/main/notes/logs/s26/round26-lib.sh
moved_on_round $1 $3 lab$1.log
wc -l ../sp$1.csv s$1-d7r8.csv m$1-val.csv n$1-tr.csv sp$1-tr.csv
date
echo done > data$1.done
