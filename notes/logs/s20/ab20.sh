cd /work/data
NET=$1
B=/work/data/bastion-s20
common="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850 --tc 10+0.1 --games 120 --concurrency 1 --openings open231-290.epd --repeat"
date
$B match --engine name=bastion cmd=$B $common --pgn sf20-base.pgn > sf20-base.log 2>&1 &
$B match --engine name=bastion cmd=$B option.EvalFile=/work/data/$NET $common --pgn sf20-cand.pgn > sf20-cand.log 2>&1 &
wait
date
echo done > ab20.done
