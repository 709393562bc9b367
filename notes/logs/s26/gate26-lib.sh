# Session 26: shared by train26.sh and train26b.sh (sourced, run in /work/data/s26).
# Session 25's gate (ev) on four held-out sets; tiny.csv is the first 200 lines of m26-val.csv.
# Session 27 sources it too, with its own VALS and TRAIN_VAL (the set `nnue train` reports on).
S=../s25
VALS=${VALS:-"$S/g25-val.csv $S/m25-val.csv $S/m25b-val.csv m26-val.csv"}
TRAIN_VAL=${TRAIN_VAL:-m26-val.csv}
. /work/main/notes/logs/s25/gate25-lib.sh
# Train one candidate from "NAME INIT DATA EPOCHS LR", then gate it.
run() {
  set -- $1
  $B nnue train --data $3 --validation $TRAIN_VAL --out $1.nnue --init "$2" --epochs $4 --batch 4096 --lr $5 --threads 2 > train-$1.log 2>&1
  echo "$1 $(ev $1.nnue)"
}
