"""Paired score of c6 (sessions 17-18) against c3 (session 15) over all 100 opening pairs.

Run from the repository root. The two halves have overlapping round numbers, so they are paired
separately and the per-pair differences pooled.
"""
import gzip, math, re


def load(path):
    text = (gzip.open if path.endswith(".gz") else open)(path, "rt").read()
    scores = {}
    for game in text.split("[Event ")[1:]:
        rnd = re.search(r'\[Round "([^"]+)"\]', game).group(1)
        white = re.search(r'\[White "([^"]+)"\]', game).group(1)
        res = {"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}.get(re.search(r'\[Result "([^"]+)"\]', game).group(1))
        if res is not None:
            scores[rnd] = res if white == "bastion" else 1 - res
    return scores


def diffs(old, new):
    a, b = load(old), load(new)
    out = []
    for p in sorted({r.split(".")[0] for r in b}):
        ks = [p + ".1", p + ".2"]
        if all(k in a and k in b for k in ks):
            out.append(sum(b[k] for k in ks) - sum(a[k] for k in ks))
    return out


d = diffs("notes/logs/s15/sf2850-c3-120.pgn.gz", "notes/logs/s17/sf2850-c6-120.pgn.gz") + diffs(
    "notes/logs/s15/sf2850-c3-80-openings61-100.pgn.gz", "notes/logs/s18/sf2850-c6-80-openings61-100.pgn.gz"
)
n = len(d)
m = sum(d) / n
sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
print(f"pairs {n}: per game {m / 2 * 100:+.1f}% ± {sd / math.sqrt(n) / 2 * 100:.1f}%")
