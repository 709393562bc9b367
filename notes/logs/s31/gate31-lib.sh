# Session 31: quantised loss of a network on gate30-lib.sh's nine held-out sets plus m30c (round
# 30c, n2 self-play, held out by game id). Sourced in /work/data/s31; `ev NET`.
. /work/main/notes/logs/s30/gate30-lib.sh
VALS="${VALS/ m30-val.csv m30b-val.csv/ ../s30/m30-val.csv ../s30/m30b-val.csv} m30c-val.csv"
B=../bastion-s31
