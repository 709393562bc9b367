# Session 33: a king-bucket network against Stockfish 2850 at 10+0.1 through set30.sh (openings
# 231-280, then 181-230, both colours, two games at a time), on bastion-s33 (the native build of
# king-buckets-s33.diff): 200 games, each paired with n2's game on the same opening and colour
# (s30/n2-231-280.pgn and s29/set29.pgn).
# Usage: bash set33.sh NET.nnue TAG   (NET in /work/data/s31; writes to /work/data/s30)
B=../bastion-s33 bash /work/main/notes/logs/s30/set30.sh ../s31/$1 $2
