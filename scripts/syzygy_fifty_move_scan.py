#!/usr/bin/env python3
"""Counts cursed wins and blessed losses (results the 50-move rule changes) in random legal
positions of every Syzygy table in a directory, probed by python-chess's chess.syzygy.

Usage: scripts/syzygy_fifty_move_scan.py [DIR] [PER_TABLE] [SEED]
DIR defaults to ../shared/data/syzygy, PER_TABLE to 20000, SEED to 1. Prints one line per
table: positions probed, cursed wins, blessed losses and an example FEN of each kind found.
Needs Python 3 with python-chess (pip install chess)."""
import os
import random
import sys

import chess
import chess.syzygy

table_dir = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/syzygy"
per_table = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)


def random_board(white, black):
    """A random valid position with `white` and `black` pieces (letters, kings included)."""
    pieces = [chess.Piece.from_symbol(c) for c in white] + [chess.Piece.from_symbol(c.lower()) for c in black]
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(pieces))
        if any(p.piece_type == chess.PAWN and chess.square_rank(s) in (0, 7) for p, s in zip(pieces, squares)):
            continue
        for p, s in zip(pieces, squares):
            board.set_piece_at(s, p)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            return board


names = sorted(f[: -len(".rtbw")] for f in os.listdir(table_dir) if f.endswith(".rtbw"))
totals = [0, 0, 0]
with chess.syzygy.open_tablebase(table_dir) as tb:
    for name in names:
        white, black = name.split("v")
        counts = {1: 0, -1: 0}
        examples = {}
        for _ in range(per_table):
            board = random_board(white, black)
            wdl = tb.probe_wdl(board)
            if wdl in counts:
                counts[wdl] += 1
                examples.setdefault(wdl, board.fen())
        totals[0] += per_table
        totals[1] += counts[1]
        totals[2] += counts[-1]
        shown = " ".join(examples.values())
        print(f"{name:8} {per_table} positions, {counts[1]} cursed wins, {counts[-1]} blessed losses {shown}", flush=True)
print(f"all: {totals[0]} positions, {totals[1]} cursed wins, {totals[2]} blessed losses")
