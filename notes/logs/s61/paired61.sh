# Session 61 (rule61.md): the Stockfish arm's games (P60 as EvalFile) paired with the shipped
# engine's games of sessions 54–55 on the same openings and colours. paired.py matches each OLD NEW
# couple by opening and colour, so one new slice may be paired against two old ones without
# counting a game twice. Run from the repository root.
L=notes/logs; N=${N:-$L/s61}
# shellcheck disable=SC2086
python3 $L/s10/paired.py \
  $L/s54/sf54-91-120.pgn.gz $N/sf61-101-130.pgn.gz $L/s54/sf54-121-150.pgn.gz $N/sf61-101-130.pgn.gz \
  $L/s54/sf54-121-150.pgn.gz $N/sf61-131-160.pgn.gz $L/s55/sf55-151-180.pgn.gz $N/sf61-131-160.pgn.gz \
  $L/s55/sf55-151-180.pgn.gz $N/sf61-161-190.pgn.gz $L/s55/sf55-181-210.pgn.gz $N/sf61-161-190.pgn.gz \
  $L/s55/sf55-181-210.pgn.gz $N/sf61-191-200.pgn.gz
