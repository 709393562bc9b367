# Session 38, information only (not the setting, which is 1 thread each): the shipped engine
# with 2 threads against Stockfish 2850 with 1 thread at 10+0.1, one game at a time so Bastion has
# both cores while it thinks. It sizes the gap in compute: how far a second core (about +147 Elo in
# self-play, session 37) takes Bastion against Stockfish. Openings 131-160 of ../shared/data/openings.epd
# with both colours. Run in /work/data/s38.
cd ${DIR:-/work/data/s38}
B=${B:-./bastion-s38}
sed -n 131,160p /work/shared/data/openings.epd > open131-160.epd
$B match --engine name=bastion-2t cmd=$B option.Threads=2 --engine name=sf2850 cmd=/usr/games/stockfish \
  option.UCI_LimitStrength=true option.UCI_Elo=2850 --tc 10+0.1 --games ${GAMES:-60} --concurrency 1 \
  --openings open131-160.epd --repeat --pgn sf2t38.pgn > sf2t38.log 2>&1
date >> sf2t38.log
