# Session 44 (rule44b.md), information only: the PGO build of the shipped engine (n2 built in) against
# Stockfish at UCI_Elo=2700 instead of 2850, 10+0.1, 1 thread each, two games at a time, openings
# FROM..TO of openings.epd with both colours. Run in /work/data/s44 with bastion-pgo there.
# Usage: FROM=61 TO=90 bash cal44.sh
cd ${DIR:-/work/data/s44}
tag=cal44-$FROM-$TO
sed -n ${FROM},${TO}p /work/shared/data/openings.epd > open$FROM-$TO.epd
SF="--engine name=sf2700 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2700"
./bastion-pgo match --engine name=bastion cmd=$PWD/bastion-pgo $SF --tc 10+0.1 --games ${GAMES:-60} --concurrency 2 \
  --openings open$FROM-$TO.epd --repeat --pgn $tag.pgn > $tag.log 2>&1
date >> $tag.log
