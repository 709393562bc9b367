# Session 49: judge U48 as rule48c.md says. Self-play against S512 (as sp48.sh, 300 games, 3+0.03),
# then, only if above 50 %, Stockfish 2850 at 10+0.1 on openings 61-90 and 211-240 (arms never cut).
# Run in /work/data/s49 with U48.nnue copied there: `bash run49.sh`.
cd /work/data/s49
B=/work/data/s47/bastion-pgo-fused
L=/work/main/notes/logs/s46
echo "$(date -u +%T) self-play" >> run49.log
$B match --engine name=U48 cmd=$B option.EvalFile=$PWD/U48.nnue --engine name=S512 cmd=$B --tc 3+0.03 \
  --games 300 --concurrency 2 --openings /work/shared/data/openings.epd --repeat --pgn sp49.pgn > sp49.log 2>&1
last=$(grep '^Games ' sp49.log | tail -1); echo "$(date -u +%T) $last" >> run49.log
pct=$(echo "$last" | sed -E 's/.*, ([0-9.]+)%\).*/\1/')
if awk -v p="$pct" 'BEGIN{exit !(p>50)}'; then
  for a in "61 90" "211 240"; do set -- $a
    echo "$(date -u +%T) sf $1-$2" >> run49.log
    DIR=/work/data/s49 TAG=sf49 B=$B NET=U48.nnue FROM=$1 TO=$2 bash $L/sf46.sh
    echo "$(date -u +%T) $(grep '^Games ' sf49-$1-$2.log | tail -1)" >> run49.log
  done
else echo "$(date -u +%T) U48 at $pct %: no Stockfish games (rule48c.md)" >> run49.log; fi
touch run49.done
