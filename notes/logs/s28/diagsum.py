"""Summary of diagnose.py output: how often Bastion with 20x the time changes its move or its
mind, and how much full-strength Stockfish thinks the played move lost. Usage: diagsum.py diag.txt"""
import statistics
import sys

rows = [l.rstrip('\n').split(';') for l in open(sys.argv[1])][1:]
n = len(rows)
changed = sum(r[1] != r[3] for r in rows)
same_as_sf = sum(r[3] == r[5] for r in rows)
played_as_sf = sum(r[1] == r[5] for r in rows)
drop = [float(r[2]) - float(r[4]) for r in rows]
loss = [float(r[6]) - float(r[7]) for r in rows]
sees = sum(float(r[4]) <= -0.5 for r in rows)
print(f'positions: {n}')
print(f'played move = full Stockfish best move: {played_as_sf}')
print(f'Bastion at 5 s changes its move: {changed}; its new move = Stockfish best: {same_as_sf}')
print(f'Bastion at 5 s scores itself <= -0.50 (sees the trouble): {sees}')
print(f'Bastion eval drop, game -> 5 s: median {statistics.median(drop):.2f}')
print(f'Stockfish: best minus played, median {statistics.median(loss):.2f}, '
      f'>= 0.50 in {sum(x >= 0.5 for x in loss)}, >= 1.00 in {sum(x >= 1.0 for x in loss)}')
print(f'Stockfish best-move eval for Bastion: median {statistics.median(float(r[6]) for r in rows):.2f}, '
      f'<= -1.00 in {sum(float(r[6]) <= -1.0 for r in rows)}')
