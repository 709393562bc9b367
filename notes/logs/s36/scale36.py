#!/usr/bin/env python3
"""Session 36: spread of Bastion's scores against Stockfish's reply scores, by non-pawn material (both sides;
N,B 3, R 5, Q 9). usage: scale36.py PGN.gz..."""
import sys, re, gzip, chess, chess.pgn, collections, math
SCORE=re.compile(r"([+-]?)(M?)([\d.]+)/")
V={chess.KNIGHT:3,chess.BISHOP:3,chess.ROOK:5,chess.QUEEN:9}
acc=collections.defaultdict(list)
for path in sys.argv[1:]:
    with gzip.open(path,'rt') as f:
        while (g:=chess.pgn.read_game(f)) is not None:
            usw=g.headers['White']=='bastion'; b=g.board(); last=None
            for n in g.mainline():
                m=SCORE.match(n.comment); mw=b.turn; b.push(n.move)
                if not m or m.group(2): last=None; continue
                x=float(m.group(3)); x=-x if m.group(1)=='-' else x
                if mw==usw: last=(x, sum(V.get(p.piece_type,0) for p in b.piece_map().values()))
                elif last:
                    acc[min(last[1]//10*10,60)].append((last[0],-x)); last=None
for k in sorted(acc):
    v=[(o,s) for o,s in acc[k] if abs(o)<8 and abs(s)<8]
    ro=math.sqrt(sum(o*o for o,s in v)/len(v)); rs=math.sqrt(sum(s*s for o,s in v)/len(v))
    b_so=sum(o*s for o,s in v)/sum(o*o for o,s in v)
    print(f"npm {k:2}+: n {len(v):6} rms ours {ro:.2f} sf {rs:.2f} ratio {ro/rs:.2f} | slope sf-on-ours {b_so:.2f} -> ours/sf {1/b_so:.2f}")
