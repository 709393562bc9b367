# Session 39, information only (not a decision): HandEvalPct=30 against the default at a fixed
# 20,000 nodes a move, so the hand-written evaluation's cost in speed does not count. Does the mix
# evaluate better per node? Same binary, openings.epd with both colours. Run in /work/data/s39.
cd ${DIR:-/work/data/s39}
B=${B:-./bastion-s39h}
$B match --engine name=hand30 cmd=$B option.HandEvalPct=30 --engine name=base cmd=$B --nodes 20000 \
  --games 600 --concurrency 2 --openings /work/shared/data/openings.epd --repeat --pgn nodes39.pgn > nodes39.log 2>&1
date >> nodes39.log
