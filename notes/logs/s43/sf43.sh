# Session 43 (rule43.md): the PGO build against Stockfish 2850 at 10+0.1, 1 thread each, two games at
# a time, openings FROM..TO of openings.epd with both colours. Run in /work/data/s43 with bastion-pgo there.
# Usage: FROM=241 TO=270 bash sf43.sh
cd ${DIR:-/work/data/s43}
tag=sf43-$FROM-$TO
sed -n ${FROM},${TO}p /work/shared/data/openings.epd > open$FROM-$TO.epd
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
./bastion-pgo match --engine name=bastion cmd=$PWD/bastion-pgo $SF --tc 10+0.1 --games ${GAMES:-60} --concurrency 2 \
  --openings open$FROM-$TO.epd --repeat --pgn $tag.pgn > $tag.log 2>&1
date >> $tag.log
