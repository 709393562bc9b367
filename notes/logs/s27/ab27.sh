# Session 27: side-by-side A/B of non-pawn correction history. One binary (bastion-s27, the
# candidate diff on 7c6d43f, c11 built in) in both arms: NonPawnCorrection off (= the shipped
# engine, same bench signature) and on. Each arm plays Stockfish 2850 at 10+0.1 on openings
# 181-230 with both colours, one game at a time (2 cores in all). Run in /work/data/s27.
cd /work/data/s27
B=../bastion-s27
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
M="--tc 10+0.1 --games 100 --concurrency 1 --openings open181-230.epd --repeat"
$B match --engine name=bastion cmd=$B $SF $M --pgn ab27-off.pgn > ab27-off.log 2>&1 &
$B match --engine name=bastion cmd=$B option.NonPawnCorrection=true $SF $M --pgn ab27-on.pgn > ab27-on.log 2>&1 &
wait
date
echo done > ab27.done
