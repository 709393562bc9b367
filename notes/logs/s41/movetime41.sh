# Session 41, information only: tq against q0 at a fixed 70 ms a move (no clock management), the
# first check of the puzzle in notes/engine.md (equal nodes +23 to +60, 3+0.03 -24). Same binary,
# both through EvalFile, openings.epd with both colours. Run in /work/data/s41.
cd ${DIR:-/work/data/s41}
B=${B:-./bastion-s41}
TAG=${TAG:-movetime41}
$B match --engine name=tq cmd=$B option.EvalFile=$PWD/tq.nnue --engine name=q0 cmd=$B option.EvalFile=$PWD/q0.nnue \
  --movetime 70 --games ${GAMES:-240} --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
