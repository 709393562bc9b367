"""Session 39: which groups of hand-written terms carry what the network misses? Reads
`blend39 --groups` output and fits result ~ sigmoid((nn + sum_g c_g * group_g) / K) by gradient
descent on the even games (K fixed at the network's best), then reports the loss on the odd games:
all groups together, each group alone, and all groups but one."""
import sys
import numpy as np

NAMES = ["material", "mobility", "passed", "pawns", "king", "pieces", "threats", "tempo"]
d = np.loadtxt(sys.argv[1], delimiter=",")
d = d[(np.abs(d[:, 0]) < 1500) & (np.abs(d[:, 1]) < 1500)]
fit, test = d[d[:, 5] % 2 == 0], d[d[:, 5] % 2 == 1]

def sig(x):
    return 1 / (1 + np.exp(-x))

def loss(nn, G, c, r, K):
    return np.mean((sig((nn + G @ c) / K) - r) ** 2)

K = min(range(100, 400, 5), key=lambda k: loss(fit[:, 0], fit[:, 6:6], np.zeros(0), fit[:, 2], k))

def train(cols):
    nn, G, r = fit[:, 0], fit[:, 6:][:, cols] / 100.0, fit[:, 2]
    c = np.zeros(len(cols))
    m = v = np.zeros(len(cols))
    for t in range(1, 801):  # Adam, full batch
        p = sig((nn + G @ c * 100) / K)
        g = (2 * (p - r) * p * (1 - p) * 100 / K) @ G / len(r)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        c -= 0.01 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-12)
    return c

def held_out(cols, c):
    return loss(test[:, 0], test[:, 6:][:, cols], c, test[:, 2], K)

base = loss(test[:, 0], test[:, 6:6], np.zeros(0), test[:, 2], K)
print(f"K {K}; fit {len(fit)} positions, held out {len(test)}; network alone, held out: {base:.6f}")
allc = list(range(8))
c = train(allc)
print(f"all groups: held out {held_out(allc, c):.6f} ({held_out(allc, c) - base:+.6f}); weights " +
      ", ".join(f"{n} {w:.2f}" for n, w in zip(NAMES, c)))
for i, n in enumerate(NAMES):
    ci = train([i])
    rest = [j for j in allc if j != i]
    cr = train(rest)
    print(f"{n:9s} alone: {held_out([i], ci) - base:+.6f} (weight {ci[0]:.2f});  all but {n}: "
          f"{held_out(rest, cr) - base:+.6f}")
