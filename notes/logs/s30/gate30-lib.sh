# Session 30: quantised loss of a network on gate29-lib.sh's seven held-out sets plus session 30's
# two new sets from n2's self-play (m30, m30b), which no network has seen. Sourced in
# /work/data/s30; `ev NET`.
. /work/main/notes/logs/s29/gate29-lib.sh
VALS="$VALS m30-val.csv m30b-val.csv"
B=../bastion-s29
