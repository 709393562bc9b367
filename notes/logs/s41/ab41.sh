# Session 41, information only (rule41b.md's step 1 failed, so tq cannot be adopted whatever this
# shows): the shipped engine (bastion-s40, n2 built in) and the threat network tq (bastion-s41, the
# build that played step 1) side by side against Stockfish 2850 at 10+0.1, 1 thread each, openings
# 211-240 with both colours, one game at a time per arm (2 cores in all). Run in /work/data/s41.
cd ${DIR:-/work/data/s41}
sed -n 211,240p /work/shared/data/openings.epd > open211-240.epd
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
./bastion-s40 match --engine name=bastion cmd=./bastion-s40 $SF --tc 10+0.1 --games ${GAMES:-60} --concurrency 1 \
  --openings open211-240.epd --repeat --pgn ab41-n2.pgn > ab41-n2.log 2>&1 &
./bastion-s41 match --engine name=bastion cmd=./bastion-s41 option.EvalFile=$PWD/tq.nnue $SF --tc 10+0.1 \
  --games ${GAMES:-60} --concurrency 1 --openings open211-240.epd --repeat --pgn ab41-tq.pgn > ab41-tq.log 2>&1 &
wait
date > ab41.done
