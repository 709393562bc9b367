import chess.pgn, gzip, sys, re, collections
rx=re.compile(r'([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)')
def ev(c):
    m=rx.search(c or '')
    if not m: return None
    s=-1 if m.group(1)=='-' else 1
    return s*(100 if m.group(2) else float(m.group(3)))
lags=collections.Counter(); sfjump=collections.Counter(); ourjump=[]
for path in sys.argv[1:]:
    f=gzip.open(path,'rt')
    while (g:=chess.pgn.read_game(f)) is not None:
        bw=g.headers['White']=='bastion'; res=g.headers['Result']
        if not ((res=='0-1' and bw) or (res=='1-0' and not bw)): continue
        b=g.board(); seq=[]
        for nd in g.mainline():
            mover_b=(b.turn==chess.WHITE)==bw; e=ev(nd.comment)
            if e is not None: seq.append((mover_b, e if mover_b else -e, b.fullmove_number))
            b.push(nd.move)
        # first SF <= -1.5
        i=next((k for k,(m,e,_) in enumerate(seq) if not m and e<=-1.5),None)
        if i is None: lags['never']+=1; continue
        # prior SF eval
        prev=[e for (m,e,_) in seq[:i] if not m][-1:] 
        pv=prev[0] if prev else 0
        sfjump['sudden(prev>-0.5)' if pv>-0.5 else 'gradual']+=1
        j=next((k for k in range(i,len(seq)) if seq[k][0] and seq[k][1]<=-1.0),None)
        if j is None: lags['ours never']+=1; continue
        n=sum(1 for k in range(i,j) if seq[k][0])
        lags['0-1' if n<=1 else '2-3' if n<=3 else '4-8' if n<=8 else '9+']+=1
print('our moves from SF<=-1.5 until ours<=-1.0:',dict(lags)); print('SF jump:',dict(sfjump))
