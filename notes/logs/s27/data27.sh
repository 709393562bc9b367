# Session 27, last hour: more data for a later round (not used this session). c11 self-play,
# then one depth-7 moved-on round (1-8 random plies), through lab26.sh's round (round26-lib.sh). Run in /work/data/s27.
cd /work/data/s27
B=../bastion-s25
$B tune --generate 15000 --data ../sp27.csv --nodes 2000 --threads 2 --seed 2701 --scores > gen27.log 2>&1
date
. /work/main/notes/logs/s26/round26-lib.sh
moved_on_round 27 2702 lab27c.log
wc -l ../sp27.csv s27-d7r8.csv m27-val.csv n27-tr.csv sp27-tr.csv
date
echo done > data27.done
