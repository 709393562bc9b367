import chess.pgn, gzip, sys, re, collections
def opn(p): return gzip.open(p,'rt') if p.endswith('.gz') else open(p)
rx=re.compile(r'([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)')
def ev(c):
    m=rx.search(c or '')
    if not m: return None
    s=-1 if m.group(1)=='-' else 1
    if m.group(2): return s*100
    return s*float(m.group(3))
stats=collections.Counter(); phases=collections.Counter(); moves=[]
unaware=0; n=0
for path in sys.argv[1:]:
    f=opn(path)
    while True:
        g=chess.pgn.read_game(f)
        if g is None: break
        bw = g.headers['White']=='bastion'
        res=g.headers['Result']
        lost = (res=='0-1' and bw) or (res=='1-0' and not bw)
        if not lost: continue
        n+=1
        b=g.board(); node=g
        first=None
        for nd in g.mainline():
            mover_b = (b.turn==chess.WHITE)==bw
            e=ev(nd.comment)
            if e is not None:
                # convert to bastion POV
                eb = e if mover_b else -e
                if not mover_b and eb<=-1.5 and first is None:
                    # bastion's last eval
                    first=(b.fullmove_number, b, lastb)
                if mover_b: lastb=eb
            b.push(nd.move)
            if first and first[1] is not b: pass
        if first:
            mv,bd,lb=first
        # recompute material at first point
        b=g.board(); first=None; lastb=0
        for nd in g.mainline():
            mover_b=(b.turn==chess.WHITE)==bw
            e=ev(nd.comment)
            if e is not None:
                eb=e if mover_b else -e
                if mover_b: lastb=eb
                elif eb<=-1.5:
                    mat=sum(len(b.pieces(pt,c))*v for pt,v in [(1,1),(2,3),(3,3),(4,5),(5,9)] for c in (0,1))
                    first=(b.fullmove_number, mat, lastb, eb); break
            b.push(nd.move)
        if first:
            mv,mat,lb,eb=first
            moves.append(mv)
            ph='opening<=20' if mv<=20 else ('middle<=35' if mv<=35 else 'late')
            phases[ph]+=1
            stats['mat>=60' if mat>=60 else 'mat40-59' if mat>=40 else 'mat20-39' if mat>=20 else 'mat<20']+=1
            if lb>-0.5: unaware+=1
print('losses',n,'phases',dict(phases),'material',dict(stats),'bastion unaware (own eval>-0.5 when SF saw <=-1.5):',unaware)
moves.sort(); print('median move',moves[len(moves)//2] if moves else None)
