#!/usr/bin/env python3
"""Cross-check Bastion DTM values against Gaviota tables via python-chess.

Reads lines "FEN<TAB>DTM" (DTM in plies as Gaviota reports it: positive if
the side to move mates, negative if it is mated, 0 for draws and checkmated
positions) from the file given as argv[1], probes the Gaviota tables in
argv[2] with python-chess's pure-Python prober, and prints a summary.
Exit status 0 only if every position agrees.
"""
import sys

import chess
import chess.gaviota


def main() -> int:
    path, gaviota_dir = sys.argv[1], sys.argv[2]
    checked = mismatches = 0
    with chess.gaviota.PythonTablebase() as tb:
        tb.add_directory(gaviota_dir)
        with open(path) as f:
            for line in f:
                fen, ours = line.rstrip("\n").split("\t")
                board = chess.Board(fen)
                theirs = tb.probe_dtm(board)
                checked += 1
                if theirs != int(ours):
                    mismatches += 1
                    if mismatches <= 10:
                        print(f"MISMATCH {fen}: bastion {ours}, gaviota {theirs}")
    print(f"gaviota cross-check: {checked} positions, {mismatches} mismatches")
    return 0 if mismatches == 0 and checked > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
