# Session 53 (rule53.md): search switches (OPTS) against the same binary with them off, self-play at
# fixed nodes on every opening of openings.epd with both colours (300 pairs, 600 games).
#   DIR=/work/data/s53 B=bastion-c TAG=conthist4 OPTS="option.ContHist4=true" bash sp53.sh
# BASE= names another binary for the base side (default: B), to compare two builds.
set -eu
cd "$DIR"
OPENINGS=${OPENINGS:-/work/shared/data/openings.epd}
# shellcheck disable=SC2086
"./$B" match --engine name=cand "cmd=./$B" $OPTS --engine name=base "cmd=./${BASE:-$B}" \
  --nodes "${NODES:-40000}" --games "${GAMES:-600}" --concurrency 2 --openings "$OPENINGS" --repeat \
  --pgn "sp53-$TAG.pgn" --resume > "sp53-$TAG.log" 2>&1
tail -4 "sp53-$TAG.log"
