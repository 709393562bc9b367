# Session 48 (rule48.md): wait for train48.sh, then self-play (measure 2) and, only if T48 scored
# above 50 % there, the two Stockfish arms (measure 3). Run in /work/data/s48.
cd /work/data/s48
L=/work/main/notes/logs/s48
while [ ! -f time48.txt ]; do sleep 20; done
echo "$(date -u +%T) self-play" >> run48.log
bash $L/sp48.sh
last=$(grep '^Games ' sp48.log | tail -1); echo "$(date -u +%T) $last" >> run48.log
pct=$(echo "$last" | sed -E 's/.*, ([0-9.]+)%\).*/\1/')
if awk -v p="$pct" 'BEGIN{exit !(p>50)}'; then
  for a in "1 30" "31 60"; do set -- $a
    echo "$(date -u +%T) sf $1-$2" >> run48.log
    FROM=$1 TO=$2 bash $L/sf48.sh
    echo "$(date -u +%T) $(grep '^Games ' sf48-$1-$2.log | tail -1)" >> run48.log
  done
else echo "$(date -u +%T) T48 at $pct %: no Stockfish games (rule48.md)" >> run48.log; fi
touch run48.done
