cd /work/data/s24
../bastion-s23 match --engine name=bastion cmd=/work/data/bastion-s23 option.EvalFile=/work/data/s24/c11.nnue --engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850 --tc 10+0.1 --games 200 --concurrency 2 --openings open81-180.epd --repeat --pgn sf2850-c11-200-openings81-180.pgn > m24.log 2>&1
echo done > m24.done
