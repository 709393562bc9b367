# Session 26: shared by train26.sh and train26b.sh (sourced, run in /work/data/s26).
B=../bastion-s25
S=../s25
# Quantised loss of network $1 on each held-out set (tiny.csv: the first 200 lines of m26-val.csv).
ev() { for v in $S/g25-val.csv $S/m25-val.csv $S/m25b-val.csv m26-val.csv; do n=${v##*/}; printf " %s %s" ${n%-val.csv} $($B nnue train --data tiny.csv --validation $v --out /tmp/x.nnue --init "$1" --epochs 1 --lr 1e-12 --batch 4096 2>&1 | grep 'starting network' | awk '{print $NF}'); done; echo; }
# Train one candidate from "NAME INIT DATA EPOCHS LR", then gate it.
run() {
  set -- $1
  $B nnue train --data $3 --validation m26-val.csv --out $1.nnue --init "$2" --epochs $4 --batch 4096 --lr $5 --threads 2 > train-$1.log 2>&1
  echo "$1 $(ev $1.nnue)"
}
