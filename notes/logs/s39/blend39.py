"""Session 39: does mixing the hand-written evaluation into the network's predict self-play
game results better? Reads `nn,hce,result,score,pieces` lines (blend39 example output, White's
view) and prints, for each mix b, the mean squared error of sigmoid(((1-b)*nn + b*hce)/K)
against the game result, with K refitted for each b, overall and by phase.
Usage: blend39.py FILE [fit|held-out] (even or odd game numbers)."""
import sys
import numpy as np

d = np.loadtxt(sys.argv[1], delimiter=",")
# Even games fit K and b; odd games are held out.
d = d[d[:, 5] % 2 == (0 if len(sys.argv) < 3 or sys.argv[2] == "fit" else 1)]
nn, hce, res, score, pieces, _game = d.T
# Positions after the random opening plies only, and not decided yet by the evaluation.
keep = (np.abs(nn) < 1500) & (np.abs(hce) < 1500)
nn, hce, res, score, pieces = nn[keep], hce[keep], res[keep], score[keep], pieces[keep]
print(f"{len(nn)} positions")

def loss(e, r, K):
    return np.mean((1 / (1 + np.exp(-e / K)) - r) ** 2)

def best(e, r):
    ks = np.arange(100, 700, 10)
    ls = [loss(e, r, k) for k in ks]
    i = int(np.argmin(ls))
    return ls[i], ks[i]

groups = {"all": pieces > 0, "pieces>=24": pieces >= 24, "13-23": (pieces >= 13) & (pieces < 24), "<=12": pieces <= 12}
print("b     " + "  ".join(f"{g:>18}" for g in groups))
for b in np.arange(0, 0.55, 0.05):
    e = (1 - b) * nn + b * hce
    cells = []
    for g, m in groups.items():
        l, k = best(e[m], res[m])
        cells.append(f"{l:.6f} (K {k:3d})")
    print(f"{b:.2f}  " + "  ".join(f"{c:>18}" for c in cells))
print("corr(nn, hce) =", np.corrcoef(nn, hce)[0, 1])
l, k = best(score, res)
print(f"for scale: the self-play search score itself (2,000 nodes): {l:.6f} (K {k})")
