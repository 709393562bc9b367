# Session 45: in how many games each five-man ending occurs (strong side first), with a running total.
# Usage: python3 endings45.py GAMES.pgn...
import chess, chess.pgn, sys, collections
games=collections.Counter()
def name(b):
    w=''.join(chess.piece_symbol(p.piece_type).upper() for sq,p in sorted(b.piece_map().items(), key=lambda x:-x[1].piece_type) if p.color)
    k=''.join(chess.piece_symbol(p.piece_type).upper() for sq,p in sorted(b.piece_map().items(), key=lambda x:-x[1].piece_type) if not p.color)
    vals={'K':0,'Q':9,'R':5,'B':3,'N':3,'P':1}
    a,c=sorted([w,k], key=lambda s:(-sum(vals[x] for x in s), -len(s)))
    return a+c
for fn in sys.argv[1:]:
    f=open(fn)
    while True:
        g=chess.pgn.read_game(f)
        if g is None: break
        b=g.board(); seen=set()
        for m in g.mainline_moves():
            b.push(m)
            if len(b.piece_map())<=5 and len(b.piece_map())>=5:
                seen.add(name(b))
        for s in seen: games[s]+=1
tot=0
for s,c in games.most_common():
    tot+=c; print(s,c,tot)
