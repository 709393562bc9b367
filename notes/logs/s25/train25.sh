# Session 25: fine-tune c11 (built in) on the new data and gate on the new held-out sets.
cd /work/data/s25
while [ ! -f lab25b.done ]; do sleep 5; done
. /work/main/notes/logs/s25/gate25-lib.sh
head -200 m25-val.csv > tiny.csv
cat n25-tr.csv n25b-tr.csv > nn25-tr.csv
cat n25-tr.csv n25b-tr.csv sp25-tr.csv > nnsp25-tr.csv
echo "c8 $(ev c8.nnue)"
echo "c11 $(ev '<internal>')"
tune_and_gate "n25 3 0.00005" "nn25 3 0.00005" "nnsp25 3 0.00005" "nn25 2 0.00003"
echo done > train25.done
