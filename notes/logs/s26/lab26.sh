# Session 26: new self-play by c11 (sp26.csv, 20,000 games at 2,000 nodes, seed 2601, started by hand
# in /work/data/s26), then one depth-7 moved-on round (1-8 random plies, seed 2602) and a held-out set.
cd /work/data/s26
while pgrep -f "tune --generate 20000" > /dev/null; do sleep 5; done
B=../bastion-s25
. /work/main/notes/logs/s26/round26-lib.sh
moved_on_round 26 2602 lab26.log
wc -l s26src.csv s26-d7r8.csv m26-val.csv n26-tr.csv sp26-tr.csv
date
echo done > lab26.done
