# Session 25: side-by-side A/B, c11 (built in) against the candidate c12, each against Stockfish 2850,
# openings 81-130 with both colours, one game at a time per arm (2 cores in all). Run in /work/data/s25.
cd /work/data/s25
B=../bastion-s25
CAND=$1
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
$B match --engine name=bastion cmd=$B $SF --tc 10+0.1 --games 100 --concurrency 1 --openings open81-130.epd --repeat --pgn ab25-c11.pgn > ab25-c11.log 2>&1 &
$B match --engine name=bastion cmd=$B option.EvalFile=/work/data/s25/$CAND $SF --tc 10+0.1 --games 100 --concurrency 1 --openings open81-130.epd --repeat --pgn ab25-c12.pgn > ab25-c12.log 2>&1 &
wait
date
echo done > ab25.done
