# Session 30: quantised loss of a network on the seven held-out sets of sessions 25-28 (as
# gate29-lib.sh) plus session 30's two new sets from n2's self-play (m30, m30b), which no
# network has seen. Sourced in /work/data/s30; `ev NET`.
VALS="../s25/g25-val.csv ../s25/m25-val.csv ../s25/m25b-val.csv ../s26/m26-val.csv ../s27/m27-val.csv ../s28/m28-val.csv ../s28/m28b-val.csv m30-val.csv m30b-val.csv"
. /work/main/notes/logs/s25/gate25-lib.sh
B=../bastion-s29
