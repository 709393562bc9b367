# Session 58 (rule58.md, rule58b.md): the Stockfish games with the bundle on, paired with sessions
# 54–56's games of the shipped search (bundle off) on the same openings and colours. paired.py matches
# each OLD NEW couple by opening and colour, so slices need not line up. Run from the repository root.
L=notes/logs; P="python3 $L/s10/paired.py"
arm1="$L/s54/sf54-91-120.pgn.gz $L/s58/sf58-91-120.pgn.gz $L/s54/sf54-121-150.pgn.gz $L/s58/sf58-121-150.pgn.gz
  $L/s55/sf55-151-180.pgn.gz $L/s58/sf58-151-180.pgn.gz $L/s55/sf55-181-210.pgn.gz $L/s58/sf58-181-190.pgn.gz"
arm2="$L/s55/sf55-181-210.pgn.gz $L/s58/sf58-191-220.pgn.gz $L/s55/sf55-211-240.pgn.gz $L/s58/sf58-191-220.pgn.gz
  $L/s55/sf55-211-240.pgn.gz $L/s58/sf58-221-250.pgn.gz $L/s55/sf55-241-250.pgn.gz $L/s58/sf58-221-250.pgn.gz
  $L/s56/sf56-251-280.pgn.gz $L/s58/sf58-251-280.pgn.gz $L/s56/sf56-281-300.pgn.gz $L/s58/sf58-281-290.pgn.gz"
# shellcheck disable=SC2086
{ echo "arm 1 (openings 91-190):"; $P $arm1; echo "arm 2 (openings 191-290):"; $P $arm2
  echo "both arms (400 games):"; $P $arm1 $arm2; }
