# Session 25: shared by train25*.sh (sourced, run in /work/data/s25).
B=../bastion-s25
# Quantised loss of network $1 on each new held-out set (VALS overrides the list; session 26 sets it).
ev() { for v in ${VALS:-g25-val.csv m25-val.csv m25b-val.csv}; do n=${v##*/}; printf " %s %s" ${n%-val.csv} $($B nnue train --data tiny.csv --validation $v --out /tmp/x.nnue --init "$1" --epochs 1 --lr 1e-12 --batch 4096 2>&1 | grep 'starting network' | awk '{print $NF}'); done; echo; }
# Fine-tune c11 (built in) for each "DATA EPOCHS LR" argument, then gate the result.
tune_and_gate() {
  for cfg in "$@"; do
    set -- $cfg
    o=c12-$1-e$2-lr$3
    $B nnue train --data $1-tr.csv --validation m25-val.csv --out $o.nnue --init '<internal>' --epochs $2 --batch 4096 --lr $3 --threads 2 > train-$o.log 2>&1
    echo "$o $(ev $o.nnue)"
  done
  date
}
