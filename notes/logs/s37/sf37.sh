# Session 37: the shipped engine (bastion-s37, the build of 178ea44) against Stockfish 2850 at 10+0.1,
# 1 thread each, two games at a time; openings 281-300 and 171-180 of ../shared/data/openings.epd with
# both colours (281-300 never played against Stockfish before). Run in /work/data/s37.
cd ${DIR:-/work/data/s37}
B=${B:-./bastion-s37}
$B match --engine name=bastion cmd=$B --engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true \
  option.UCI_Elo=2850 --tc 10+0.1 --games ${GAMES:-60} --concurrency 2 --openings open281-300+171-180.epd --repeat \
  --pgn sf37.pgn > sf37.log 2>&1
date >> sf37.log
