# Session 27: fine-tune c11 on the depth-9 labels of lab27.sh, with a depth-7 control on the very
# same positions, gated on session 25/26's held-out sets plus m26-d9 (m26's positions, depth-9 labels).
# Run in /work/data/s27 after lab27.sh.
cd /work/data/s27
while [ ! -f lab27.done ]; do sleep 5; done
T=../s26
VALS="../s25/g25-val.csv ../s25/m25-val.csv ../s25/m25b-val.csv $T/m26-val.csv m26-d9.csv"
TRAIN_VAL=m26-d9.csv
. /work/main/notes/logs/s26/gate26-lib.sh
head -200 m26-d9.csv > tiny.csv
echo "c11 $(ev '<internal>')"
echo "c13e $(ev $T/c13e.nnue)"
cat n26-d9.csv n26-d9.csv n26-d9.csv $T/sp26-tr.csv > n3sp-d9.csv
cat n26-d9.csv n26-d9.csv $S/nn25-tr.csv > n2nn25-d9.csv
run "d7a <internal> $T/n26-tr.csv 3 0.0001"
run "d9a <internal> n26-d9.csv 3 0.0001"
run "d9b <internal> n3sp-d9.csv 3 0.0001"
run "d9c <internal> n26-d9.csv 6 0.00005"
run "d9d <internal> n2nn25-d9.csv 3 0.0001"
date
echo done > train27.done
