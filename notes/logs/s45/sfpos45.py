# Session 45: every position of the games against Stockfish (after the book moves), as
# `fen,result,game` lines (result from White's side: 1, 0.5, 0) for `nnue train --validation`.
# Usage: python3 sfpos45.py GAMES.pgn... > sfpos45.csv
import chess, chess.pgn, sys
gid = 0
for fn in sys.argv[1:]:
    f = open(fn)
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        gid += 1
        res = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}[g.headers["Result"]]
        b = g.board()
        for m in g.mainline_moves():
            b.push(m)
            if not b.is_check() and not b.is_game_over():
                print(f"{b.fen()},{res},{gid}")
