# Session 38, information only: the control for sf2t38.sh. The same binary with 1 thread against
# Stockfish 2850 on the same openings (131-160 with both colours) at 10+0.1, one game at a time; it ran
# beside toga38.sh, so each engine had about one core while it thought. Run in /work/data/s38.
cd ${DIR:-/work/data/s38}
B=${B:-./bastion-s38}
sed -n 131,160p /work/shared/data/openings.epd > open131-160.epd
$B match --engine name=bastion-1t cmd=$B --engine name=sf2850 cmd=/usr/games/stockfish \
  option.UCI_LimitStrength=true option.UCI_Elo=2850 --tc 10+0.1 --games ${GAMES:-60} --concurrency 1 \
  --openings open131-160.epd --repeat --pgn sf1t38.pgn > sf1t38.log 2>&1
date >> sf1t38.log
