# Session 25, a few more fine-tuning settings after train25.sh (same gate).
cd /work/data/s25
. /work/main/notes/logs/s25/gate25-lib.sh
cat nn25-tr.csv nn25-tr.csv sp25-tr.csv > nn2sp25-tr.csv
tune_and_gate "nn25 3 0.0001" "nn25 5 0.00005" "nn2sp25 3 0.00005" "nn2sp25 3 0.0001"
