# Session 61 (rule61.md): a candidate network (CAND, a file in DIR) against V49 in self-play, both
# on the same PGO build of bc48f6d (main at the session's start), 3+0.03, 1 thread each, two games at a time, the first
# 150 openings of openings.epd (1–150) with both colours, 300 games, no early stop.
#   DIR=/work/data/s61 B=bastion-s61-pgo CAND=Kp60.nnue TAG=Kp60 bash notes/logs/s61/sp61.sh
set -eu
cd "$DIR"
"./$B" match --engine name=cand "cmd=./$B" "option.EvalFile=$PWD/$CAND" \
  --engine name=V49 "cmd=./$B" "option.EvalFile=$PWD/V49.nnue" --tc 3+0.03 --games "${GAMES:-300}" \
  --concurrency 2 --openings /work/shared/data/openings.epd --repeat --pgn "sp61-$TAG.pgn" \
  > "sp61-$TAG.log" 2>&1
tail -4 "sp61-$TAG.log"
