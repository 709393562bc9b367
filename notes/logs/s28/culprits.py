"""Positions where Bastion lost a game against Stockfish 2850: for each lost game, the position
before Bastion's last move ahead of the point from which Stockfish's own score stays >= +1.00
for good. Prints `fen;game;move played;bastion eval;sf eval after` lines.
Usage: python3 culprits.py match.pgn.gz ..."""
import gzip
import re
import sys

import chess.pgn


def score(comment):
    m = re.search(r'([+-]?[\d.]+|[+-]?M\d+)/(\d+)', comment or '')
    if not m:
        return None
    t = m.group(1)
    if 'M' in t:
        return -100.0 if t.startswith('-') else 100.0
    return float(t)


for path in sys.argv[1:]:
    f = gzip.open(path, 'rt') if path.endswith('.gz') else open(path)
    n = 0
    while (g := chess.pgn.read_game(f)) is not None:
        n += 1
        bw = g.headers['White'] == 'bastion'
        res = g.headers['Result']
        if not ((res == '0-1' and bw) or (res == '1-0' and not bw)):
            continue
        b = g.board()
        seq = []
        for nd in g.mainline():
            who = 'b' if (b.turn == chess.WHITE) == bw else 's'
            seq.append((who, b.fen(), b.san(nd.move), score(nd.comment)))
            b.push(nd.move)
        sf = [i for i, s in enumerate(seq) if s[0] == 's' and s[3] is not None]
        k = next((i for j, i in enumerate(sf) if all(seq[x][3] >= 1.0 for x in sf[j:])), None)
        if k is None or k == 0 or seq[k - 1][0] != 'b':
            continue
        who, fen, san, ev = seq[k - 1]
        print(f'{fen};{path.split("/")[-1]}#{n};{san};{ev};{seq[k][3]}')
