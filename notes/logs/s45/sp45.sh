# Session 45 (rule45b.md): S45 against the built-in n2 in self-play, 3+0.03, 300 games.
# Run in /work/data/s45 with S45.nnue there.
cd ${DIR:-/work/data/s45}
B=/work/data/s44/bastion-pgo
$B match --engine name=S45 cmd=$B option.EvalFile=$PWD/S45.nnue --engine name=n2 cmd=$B --tc 3+0.03 \
  --games 300 --concurrency 2 --openings /work/shared/data/openings.epd --repeat --pgn sp45.pgn > sp45.log 2>&1
date >> sp45.log
