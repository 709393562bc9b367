cd /work/data
NET=$1
B=/work/data/bastion-s21c8
common="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850 --tc 10+0.1 --games 80 --concurrency 1 --openings open1-45.epd --repeat"
date
$B match --engine name=bastion cmd=$B $common --pgn sf21-base.pgn > sf21-base.log 2>&1 &
$B match --engine name=bastion cmd=$B option.EvalFile=/work/data/$NET $common --pgn sf21-cand.pgn > sf21-cand.log 2>&1 &
wait
date
echo done > ab21.done
