# Session 25, mixes between the moved-on data and the self-play game scores (same gate).
cd /work/data/s25
. /work/main/notes/logs/s25/gate25-lib.sh
cat nn25-tr.csv nn25-tr.csv nn25-tr.csv sp25-tr.csv > nn3sp25-tr.csv
awk 'NR % 2 == 0' sp25-tr.csv > sp25h-tr.csv
cat nn25-tr.csv nn25-tr.csv sp25h-tr.csv > nn2sp25h-tr.csv
tune_and_gate "nn3sp25 3 0.0001" "nn2sp25h 3 0.0001" "nn2sp25h 3 0.00005"
