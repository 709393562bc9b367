#!/usr/bin/env python3
"""Probes positions in Syzygy tables with python-chess, for Bastion's cross-check.

Reads one FEN a line on stdin and writes one JSON object a line: the position's
WDL and DTZ as python-chess's chess.syzygy gives them, and for every legal move
(UCI) the WDL and DTZ of the position after it. A failed probe is written as
{"fen": ..., "error": ...}.

Usage: syzygy_reference.py TABLE_DIR < fens.txt > values.jsonl
"""

import json
import sys

import chess
import chess.syzygy


def probe(tb, board):
    return tb.probe_wdl(board), tb.probe_dtz(board)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with chess.syzygy.open_tablebase(sys.argv[1]) as tb:
        for line in sys.stdin:
            fen = line.strip()
            if not fen:
                continue
            board = chess.Board(fen)
            try:
                wdl, dtz = probe(tb, board)
                moves = {}
                for move in board.legal_moves:
                    board.push(move)
                    moves[move.uci()] = list(probe(tb, board))
                    board.pop()
                out = {"fen": fen, "wdl": wdl, "dtz": dtz, "moves": moves}
            except (KeyError, ValueError, chess.syzygy.MissingTableError) as e:
                out = {"fen": fen, "error": repr(e)}
            print(json.dumps(out), flush=False)


if __name__ == "__main__":
    main()
