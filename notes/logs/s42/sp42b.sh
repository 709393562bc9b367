# Session 42 (rule42b.md): tq against q0 at 3+0.03 again, 400 games without an SPRT stop, openings
# from line 201 of openings.epd. Run in /work/data/s41.
cd ${DIR:-/work/data/s41}
B=${B:-./bastion-s41}
TAG=${TAG:-sp42b}
(sed -n 201,300p /work/shared/data/openings.epd; sed -n 1,100p /work/shared/data/openings.epd) > open42b.epd
$B match --engine name=tq cmd=$B option.EvalFile=$PWD/tq.nnue \
  --engine name=q0 cmd=$B option.EvalFile=$PWD/q0.nnue --tc 3+0.03 \
  --games ${GAMES:-400} --concurrency 2 --openings open42b.epd --repeat \
  --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
