# Session 49 (rule49.md): after run49.sh, U48's paired difference over openings 61-90 and 211-240
# against S512's session-47 games; if >= 0 (U48 is built in), Stockfish arms on 241-270 and 271-300.
# Run in /work/data/s49: `bash run49b.sh`.
cd /work/data/s49
while [ ! -f run49.done ]; do sleep 20; done
S=/work/data/s46
P=$(python3 /work/main/notes/logs/s10/paired.py $S/sf47-61-90.pgn sf49-61-90.pgn $S/sf47-211-240.pgn sf49-211-240.pgn)
echo "$(date -u +%T) $P" | head -1 >> run49.log
if echo "$P" | head -1 | grep -q 'points/pair' && ! echo "$P" | head -1 | grep -q 'mean -'; then
  for a in "241 270" "271 300"; do set -- $a
    echo "$(date -u +%T) sf $1-$2" >> run49.log
    DIR=/work/data/s49 TAG=sf49 B=/work/data/s47/bastion-pgo-fused NET=U48.nnue FROM=$1 TO=$2 \
      bash /work/main/notes/logs/s46/sf46.sh
    echo "$(date -u +%T) $(grep '^Games ' sf49-$1-$2.log | tail -1)" >> run49.log
  done
else echo "$(date -u +%T) paired below zero: U48 not built in, no more Stockfish games" >> run49.log; fi
touch run49b.done
