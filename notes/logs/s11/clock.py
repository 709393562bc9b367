import chess.pgn, gzip, re, sys
rx=re.compile(r'([\d.]+)s\}?$')
for path in sys.argv[1:]:
    f=gzip.open(path,'rt') if path.endswith('.gz') else open(path)
    first=[];left=[]
    while (g:=chess.pgn.read_game(f)) is not None:
        bw=g.headers['White']=='bastion'; b=g.board(); used=[]
        for nd in g.mainline():
            if (b.turn==chess.WHITE)==bw:
                m=re.search(r'([\d.]+)s',nd.comment or '')
                if m: used.append(float(m.group(1)))
            b.push(nd.move)
        first.append(sum(used[:20])); left.append(10+0.1*len(used)-sum(used))
    print(path, 'first20 %.2f s'%(sum(first)/len(first)), 'left %.2f s (min %.2f)'%(sum(left)/len(left), min(left)))
