# Session 27: c13e's mix with n26's depth-9 labels in place of its depth-7 ones (d9e), and with
# the moved-on part twice instead of four times (d9f). Same gate as train27.sh. Run in /work/data/s27.
cd /work/data/s27
T=../s26
VALS="../s25/g25-val.csv ../s25/m25-val.csv ../s25/m25b-val.csv $T/m26-val.csv m26-d9.csv"
TRAIN_VAL=m26-d9.csv
. /work/main/notes/logs/s26/gate26-lib.sh
cat $S/nn25-tr.csv n26-d9.csv > all-mo-d9.csv
cat all-mo-d9.csv all-mo-d9.csv all-mo-d9.csv all-mo-d9.csv $S/sp25-tr.csv $T/sp26-tr.csv > a4sp-d9.csv
cat all-mo-d9.csv all-mo-d9.csv $S/sp25-tr.csv $T/sp26-tr.csv > a2sp-d9.csv
run "d9e <internal> a4sp-d9.csv 3 0.0001"
run "d9f <internal> a2sp-d9.csv 3 0.0001"
date
