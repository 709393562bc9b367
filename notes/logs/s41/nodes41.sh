# Session 41, information only (not a decision): the threat network tq against the control q0 at a
# fixed number of nodes a move (NODES, default 20,000), so the threat inputs' cost in speed does not
# count. Same binary, both through EvalFile, openings.epd with both colours. Run in /work/data/s41.
cd ${DIR:-/work/data/s41}
B=${B:-./bastion-s41}
TAG=${TAG:-nodes41}
$B match --engine name=tq cmd=$B option.EvalFile=$PWD/tq.nnue --engine name=q0 cmd=$B option.EvalFile=$PWD/q0.nnue \
  --nodes ${NODES:-20000} --games ${GAMES:-400} --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
