# Session 42 (rule42.md): qz (q0 with zero threat rows) against q0, same binary, 3+0.03,
# 400 games without an SPRT stop. Run in /work/data/s41 (where bastion-s41 and the networks are).
cd ${DIR:-/work/data/s41}
B=${B:-./bastion-s41}
TAG=${TAG:-sp42}
$B match --engine name=qz cmd=$B option.EvalFile=$PWD/qz.nnue \
  --engine name=q0 cmd=$B option.EvalFile=$PWD/q0.nnue --tc 3+0.03 \
  --games ${GAMES:-400} --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
