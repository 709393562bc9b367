"""Clock use by move number in a match PGN against Bastion (the engine named 'bastion').

For every fifth move after the opening position, prints the mean time per move and the mean
clock left (base 10 s, increment 0.1 s) for Bastion (b) and its opponent (s), with the number
of games still running. Usage: python3 clock_by_move.py match.pgn[.gz]
"""
import collections
import gzip
import re
import sys

import chess.pgn

path = sys.argv[1]
f = gzip.open(path, 'rt') if path.endswith('.gz') else open(path)
use = {'b': collections.defaultdict(list), 's': collections.defaultdict(list)}
while (g := chess.pgn.read_game(f)) is not None:
    bastion_white = g.headers['White'] == 'bastion'
    b = g.board()
    i = {'b': 0, 's': 0}
    for nd in g.mainline():
        who = 'b' if (b.turn == chess.WHITE) == bastion_white else 's'
        m = re.search(r'([\d.]+)s', nd.comment or '')
        if m:
            use[who][i[who]].append(float(m.group(1)))
            i[who] += 1
        b.push(nd.move)
for who in 'bs':
    clock = 10.0
    out = []
    for k in range(80):
        v = use[who][k]
        if not v:
            break
        avg = sum(v) / len(v)
        clock += 0.1 - avg
        if k % 5 == 4:
            out.append('%d:%.2f/%.1f(n%d)' % (k + 1, avg, clock, len(v)))
    print(who, ' '.join(out))
