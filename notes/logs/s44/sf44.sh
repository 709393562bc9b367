# Session 44 (rule44.md): the PGO build with session 40's p0 network (EvalFile) against Stockfish 2850
# at 10+0.1, 1 thread each, two games at a time, openings FROM..TO of openings.epd with both colours.
# Identical to notes/logs/s43/sf43.sh but for the EvalFile option, so its games pair by round number
# with session 43's arms on the same openings. Run in /work/data/s44 with bastion-pgo and p0.nnue there.
# Usage: FROM=241 TO=270 bash sf44.sh
cd ${DIR:-/work/data/s44}
tag=sf44-$FROM-$TO
sed -n ${FROM},${TO}p /work/shared/data/openings.epd > open$FROM-$TO.epd
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
./bastion-pgo match --engine name=bastion cmd=$PWD/bastion-pgo option.EvalFile=$PWD/p0.nnue $SF --tc 10+0.1 \
  --games ${GAMES:-60} --concurrency 2 --openings open$FROM-$TO.epd --repeat --pgn $tag.pgn > $tag.log 2>&1
date >> $tag.log
