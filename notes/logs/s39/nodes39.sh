# Session 39, information only (not a decision): HandEvalPct=30 against the default at a fixed
# number of nodes a move (NODES, default 20,000), so the hand-written evaluation's cost in speed
# does not count. Does the mix evaluate better per node, and does that last at more nodes?
# Same binary, openings.epd with both colours. Run in /work/data/s39.
#   bash nodes39.sh                                   (20,000 nodes, 600 games, nodes39.*)
#   NODES=150000 GAMES=300 TAG=nodes39b bash nodes39.sh
cd ${DIR:-/work/data/s39}
B=${B:-./bastion-s39h}
TAG=${TAG:-nodes39}
$B match --engine name=hand30 cmd=$B option.HandEvalPct=30 --engine name=base cmd=$B --nodes ${NODES:-20000} \
  --games ${GAMES:-600} --concurrency 2 --openings /work/shared/data/openings.epd --repeat --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
