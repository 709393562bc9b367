# Session 28, last hour: more data for a later round, as session 27's data27.sh did (not used
# this session): c11 self-play (seed 2801), then one depth-7 moved-on round (seed 2802).
# Run in /work/data/s28.
cd /work/data/s28
B=../bastion-s28
$B tune --generate 15000 --data ../sp28.csv --nodes 2000 --threads 2 --seed 2801 --scores > gen28.log 2>&1
. /work/main/notes/logs/s26/round26-lib.sh
moved_on_round 28 2802 lab28.log
wc -l ../sp28.csv s28-d7r8.csv m28-val.csv n28-tr.csv sp28-tr.csv
date
echo done > data28.done
