# Session 37: the shipped engine (bastion-s37, the build of 178ea44) against Debian's Ethereal 12
# at 10+0.1, openings 1-100 of ../shared/data/openings.epd with both colours, two games at a time.
# Run in /work/data/s37.
cd ${DIR:-/work/data/s37}
B=${B:-./bastion-s37}
$B match --engine name=bastion cmd=$B --engine name=ethereal cmd=/usr/games/ethereal-chess --tc 10+0.1 \
  --games ${GAMES:-200} --concurrency 2 --openings open1-100.epd --repeat --pgn eth37.pgn > eth37.log 2>&1
date >> eth37.log
