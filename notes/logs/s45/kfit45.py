# Session 45: each network's loss against the game results, at the trainer's fixed scale (400)
# and at its own best scale K (so calibration and spread drop out and only the ordering counts).
# Usage: python3 kfit45.py sfeval45.csv NAME...   (lines: result,score,score,... from neteval45)
import math, sys
rows = [list(map(float, l.split(','))) for l in open(sys.argv[1])]
names = sys.argv[2:]
def loss(col, k):
    s = 0.0
    for r in rows:
        p = 1 / (1 + math.exp(-r[col] / k))
        s += (p - r[0]) ** 2
    return s / len(rows)
for i, n in enumerate(names, 1):
    best = min((loss(i, k), k) for k in range(100, 1601, 25))
    lo, hi = best[1] - 25, best[1] + 25
    for _ in range(20):
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if loss(i, a) < loss(i, b): hi = b
        else: lo = a
    k = (lo + hi) / 2
    print(f"{n:12s} loss@400 {loss(i, 400):.6f}  best K {k:6.1f}  loss@K {loss(i, k):.6f}")
