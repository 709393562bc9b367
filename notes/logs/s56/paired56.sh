# Session 56: this session's Stockfish games paired with earlier engines' on the same openings and
# colours (paired.py matches by opening and colour). Run from the repository root.
# shellcheck disable=SC2086
L=notes/logs; S=$L/s56
P="python3 $L/s10/paired.py"
r271="$L/s50/sf50v-271-300.pgn.gz $S/sf56-251-280.pgn.gz $L/s50/sf50v-271-300.pgn.gz $S/sf56-281-300.pgn.gz"
r1="$L/s50/sf50v-1-30.pgn.gz $S/sf56-1-30.pgn.gz"
r31="$L/s50/sf50v-31-60.pgn.gz $S/sf56-31-50.pgn.gz"
s55="$L/s52/sf52-151-180.pgn.gz $L/s55/sf55-151-180.pgn.gz $L/s52/sf52-181-210.pgn.gz $L/s55/sf55-181-210.pgn.gz
  $L/s50/sf50v-211-240.pgn.gz $L/s55/sf55-211-240.pgn.gz"
s54="$L/s52/sf52-91-120.pgn.gz $L/s54/sf54-91-120.pgn.gz $L/s52/sf52-121-150.pgn.gz $L/s54/sf54-121-150.pgn.gz"
echo "251-270 v session 49:"; $P $L/s49/sf49v-241-270.pgn.gz $S/sf56-251-280.pgn.gz
echo "271-300 v session 50:"; $P $r271
echo "1-30 v session 50:"; $P $r1
echo "31-50 v session 50:"; $P $r31
echo "all 80 v session 50:"; $P $r271 $r1 $r31
echo "230 pairs, sessions 54-56 v 50-52:"; $P $r271 $r1 $r31 $s55 $s54
