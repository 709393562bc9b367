# Session 45: the tablebase value (for Bastion) at the first position of each game that a table
# covers, against the game's result. Usage: python3 entry45.py pos.tsv tb.out
# (pos.tsv from extract45.py, tb.out from tb_errors45 on its first two columns)
import collections, sys
pos = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
tb = [l.rstrip('\n').split('\t') for l in open(sys.argv[2])]
first = {}
games = set(p[2] for p in pos)
for p, t in zip(pos, tb):
    if t[0] == '-' or p[2] in first:
        continue
    v = t[0] if int(p[4]) else {'W': 'L', 'L': 'W', 'D': 'D'}[t[0]]
    first[p[2]] = (v, float(p[5]))
print("games reaching 5 men", len(games), "with a table position", len(first))
print("(value at entry, result): games")
for k, c in sorted(collections.Counter(first.values()).items()):
    print(k, c)
