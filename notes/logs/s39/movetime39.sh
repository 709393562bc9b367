# Session 39, information only: a candidate against the default at a fixed 70 ms a move (about
# what 3+0.03 gives each move), so speed counts but no clock management is involved.
# Same binary, openings.epd with both colours. Run in /work/data/s39.
#   bash movetime39.sh                   (HandEvalPct=30, movetime39.*)
#   B=./bastion-s39slow NAME=slow OPT=option.HandEvalPct=1 TAG=movetime39s bash movetime39.sh
#     (the control: bastion-s39slow is built with slow-control-s39.diff, where HandEvalPct=1 computes
#      the hand-written evaluation at every node and throws it away, so only the speed changes)
cd ${DIR:-/work/data/s39}
B=${B:-./bastion-s39h}
TAG=${TAG:-movetime39}
$B match --engine name=${NAME:-hand30} cmd=$B ${OPT:-option.HandEvalPct=30} --engine name=base cmd=$B --movetime 70 \
  --games ${GAMES:-300} --concurrency 2 --openings /work/shared/data/openings.epd --repeat --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
