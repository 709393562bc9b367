# Session 48 (rule48.md, measure 2): T48 (EvalFile) against S512 (built in), same binary, 3+0.03,
# 1 thread each, concurrency 2, openings.epd with both colours, 300 games, no early stop.
# Run in /work/data/s48: `bash sp48.sh`.
cd ${DIR:-/work/data/s48}
B=/work/data/s47/bastion-pgo-fused
$B match --engine name=T48 cmd=$B option.EvalFile=$PWD/T48.nnue --engine name=S512 cmd=$B --tc 3+0.03 \
  --games ${GAMES:-300} --concurrency 2 --openings /work/shared/data/openings.epd --repeat --pgn sp48.pgn > sp48.log 2>&1
date >> sp48.log
