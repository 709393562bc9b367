"""Pentanomial counts of a PGN played with --repeat (rounds N.1 and N.2 share an opening), for the
engine named NAME: pairs scoring 0, 0.5, 1, 1.5, 2. Usage: python3 penta49.py NAME GAMES.pgn"""
import sys, re
name, path = sys.argv[1], sys.argv[2]
pairs = {}
for g in open(path).read().split('[Event ')[1:]:
    r = re.search(r'\[Round "([^"]+)"\]', g).group(1)
    w = re.search(r'\[White "([^"]+)"\]', g).group(1)
    s = {'1-0': 1, '0-1': 0, '1/2-1/2': 0.5}.get(re.search(r'\[Result "([^"]+)"\]', g).group(1))
    if s is None:
        continue
    pairs.setdefault(r.split('.')[0], []).append(s if w == name else 1 - s)
p = [0] * 5
for v in pairs.values():
    if len(v) == 2:
        p[int(sum(v) * 2)] += 1
print(','.join(map(str, p)))
