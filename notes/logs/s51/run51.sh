# Session 51 (rule51.md): wait for W51's fine-tune, a 40-game sanity check against V49 in
# self-play at 3+0.03, then Stockfish arms paired with V49's session-50 games, with the rule's
# stop after two arms. Files in /work/data/s51; run51.log says what happened.
D=/work/data/s51; B=/work/data/s50/bastion-pgo; P=/work/main/notes/logs; V=/work/data/s50
cd $D
while [ ! -f time51.txt ]; do sleep 20; done
log() { echo "$(date -u +%T) $*" >> run51.log; }
log "trained: $(tail -1 time51.txt); $(grep '^epoch' train-W51.log | tail -1)"
$B match --engine name=W51 cmd=$B option.EvalFile=$D/W51.nnue --engine name=V49 cmd=$B \
  option.EvalFile=$V/V49.nnue --tc 3+0.03 --games 40 --concurrency 2 \
  --openings /work/shared/data/openings.epd --repeat --pgn sane51.pgn > sane51.log 2>&1
sane=$(grep '^Games ' sane51.log | tail -1); log "sanity: $sane"
pct=$(echo "$sane" | sed -n 's/.*, \([0-9.]*\)%).*/\1/p')
if [ -z "$pct" ] || [ "$(echo "$pct < 35" | bc)" = 1 ]; then log "stop: below 35 %"; exit 0; fi
arm() { DIR=$D TAG=sf51w B=$B NET=W51.nnue FROM=${1%-*} TO=${1#*-} bash $P/s46/sf46.sh
  log "arm $1: $(python3 $P/s10/paired.py $V/sf50v-$1.pgn $D/sf51w-$1.pgn | head -1)"; }
arm 1-30; arm 31-60
two=$(python3 $P/s10/paired.py $V/sf50v-1-30.pgn sf51w-1-30.pgn $V/sf50v-31-60.pgn sf51w-31-60.pgn | head -1)
log "after two arms: $two"
d=$(echo "$two" | sed -n 's/.*per game +\{0,1\}\([-0-9.]*\)%.*/\1/p')
if [ -z "$d" ] || [ "$(echo "$d < -2.5" | bc)" = 1 ]; then log "stop: below -2.5 % a game"; exit 0; fi
arm 61-90; arm 211-240
all=(); for r in 1-30 31-60 61-90 211-240; do all+=($V/sf50v-$r.pgn sf51w-$r.pgn); done
log "all four: $(python3 $P/s10/paired.py "${all[@]}" | head -1)"
log "W51 pentanomial: $(for r in 1-30 31-60 61-90 211-240; do python3 $P/s49/penta49.py bastion sf51w-$r.pgn; done | tr '\n' ' ')"
