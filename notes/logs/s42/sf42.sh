# Session 42, information only (no decision rests on it): the PGO build of the shipped engine
# (bastion-pgo, n2 built in) against Stockfish 2850 at 10+0.1, 1 thread each, openings 211-240 with
# both colours, two games at a time (the same load as session 41's two arms at one game each), to be
# paired with session 41's plain-build arm (ab41-n2.pgn). Run in /work/data/s42.
cd ${DIR:-/work/data/s42}
sed -n 211,240p /work/shared/data/openings.epd > open211-240.epd
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
./bastion-pgo match --engine name=bastion cmd=$PWD/bastion-pgo $SF --tc 10+0.1 --games ${GAMES:-60} --concurrency 2 \
  --openings open211-240.epd --repeat --pgn sf42-pgo.pgn > sf42-pgo.log 2>&1
date >> sf42-pgo.log
