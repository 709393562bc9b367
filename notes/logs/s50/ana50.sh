# Session 50: the shipped engine's (V49) six Stockfish arms against S512's session-46/47 games on
# the same openings: per-arm and pooled paired differences, pentanomial counts and Elo.
S=/work/data/s46; V=/work/data/s50; W=/work/data/s49; P=/work/main/notes/logs
new() { case $1 in 241-270|271-300) echo $W/sf49v-$1.pgn;; *) echo $V/sf50v-$1.pgn;; esac; }
old() { case $1 in 1-30|31-60) echo $S/sf46-$1.pgn;; *) echo $S/sf47-$1.pgn;; esac; }
args=(); pent=()
for r in 1-30 31-60 61-90 211-240 241-270 271-300; do
  echo "== $r: $(python3 $P/s10/paired.py $(old $r) $(new $r) | tr '\n' ' ')"
  p=$(python3 $P/s49/penta49.py bastion $(new $r)); echo "   V49 pentanomial [$p]"; pent+=($p)
  args+=($(old $r) $(new $r))
done
echo "== all: $(python3 $P/s10/paired.py "${args[@]}" | tr '\n' ' ')"
python3 $P/s42/penta42.py "${pent[@]}"
