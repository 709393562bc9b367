"""Session 39: does the network overrate the side to move? Fits e = nn - c * (+1 White to move,
-1 Black to move), White's view, against self-play results (K refitted), on even and odd games
apart. Input: `blend39 --groups` output (the side to move is the sign of the tempo column)."""
import sys
import numpy as np

d = np.loadtxt(sys.argv[1], delimiter=",")
d = d[(np.abs(d[:, 0]) < 1500) & (np.abs(d[:, 1]) < 1500)]
stm = np.sign(d[:, 13])
for half, name in [(0, "even (fit)"), (1, "odd (held out)")]:
    m = d[:, 5] % 2 == half
    nn, r, s = d[m, 0], d[m, 2], stm[m]
    def best(e):
        return min((np.mean((1 / (1 + np.exp(-e / k)) - r) ** 2), k) for k in range(120, 220, 5))
    rows = [(c, *best(nn - c * s)) for c in range(-10, 45, 5)]
    print(name, " ".join(f"c={c}:{l:.6f}" for c, l, k in rows))
    print("  best c", min(rows, key=lambda x: x[1])[0])
