# Session 25: side-by-side A/B, c11 (built in) against the candidate c12, each against Stockfish 2850,
# openings 81-130 with both colours, one game at a time per arm (2 cores in all). Run in /work/data/s25.
# Later sessions reuse it: DIR, OPENINGS and TAG override the folder, the openings and the file prefix,
# and CAND_PGN the candidate's file name (session 26: ab26.sh); B and BASE_PGN the baseline binary
# and its file name, GAMES the games per arm (session 31's follow-up for session 32: n2 built in, `bastion-s29`).
# CAND_OPTS replaces the candidate's engine options (default: its network as EvalFile; session 35: margin options).
DIR=${DIR:-/work/data/s25}
OPENINGS=${OPENINGS:-open81-130.epd}
TAG=${TAG:-ab25}
CAND_PGN=${CAND_PGN:-c12}
cd $DIR
B=${B:-../bastion-s25}
BASE_PGN=${BASE_PGN:-c11}
GAMES=${GAMES:-100}   # per arm: two per opening
CAND=$1
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
$B match --engine name=bastion cmd=$B $SF --tc 10+0.1 --games $GAMES --concurrency 1 --openings $OPENINGS --repeat --pgn $TAG-$BASE_PGN.pgn > $TAG-$BASE_PGN.log 2>&1 &
$B match --engine name=bastion cmd=$B ${CAND_OPTS:-option.EvalFile=$DIR/$CAND} $SF --tc 10+0.1 --games $GAMES --concurrency 1 --openings $OPENINGS --repeat --pgn $TAG-$CAND_PGN.pgn > $TAG-$CAND_PGN.log 2>&1 &
wait
date
echo done > $TAG.done
