# Session 46 (rule46b.md): S512 on the exp-512 PGO build against Stockfish 2850 at 10+0.1, 1 thread
# each, two games at a time, openings FROM..TO of openings.epd with both colours, in /work/data/s46.
# Usage: FROM=1 TO=30 bash sf46.sh   (TAG=sfNN names the files sfNN-FROM-TO instead; B= and NET= pick
# another binary and network file, relative to DIR; BOPTS="option.X=v ..." adds options for Bastion)
cd ${DIR:-/work/data/s46}
tag=${TAG:-sf46}-$FROM-$TO
sed -n ${FROM},${TO}p /work/shared/data/openings.epd > open$FROM-$TO.epd
B=${B:-/work/data/s46/bastion-512-pgo}
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
$B match --engine name=bastion cmd=$B option.EvalFile=$PWD/${NET:-S512.nnue} ${BOPTS:-} $SF --tc 10+0.1 --games ${GAMES:-60} \
  --concurrency 2 --openings open$FROM-$TO.epd --repeat --pgn $tag.pgn > $tag.log 2>&1
date >> $tag.log
