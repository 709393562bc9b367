# Session 44: clock use per engine from match PGNs ({... 0.123s} comments). Usage: python3 clock44.py A.pgn.gz ...
import sys,re,gzip,collections
tot=collections.defaultdict(list); bymove=collections.defaultdict(lambda: collections.defaultdict(list))
for fn in sys.argv[1:]:
    txt=gzip.open(fn,'rt').read()
    for g in txt.split('[Event ')[1:]:
        w=re.search(r'\[White "(\w+)"',g).group(1); b=re.search(r'\[Black "(\w+)"',g).group(1)
        fen=re.search(r'\[FEN "([^"]+)"',g).group(1); stm=fen.split()[1]
        body=g.split('\n\n',1)[1]
        ts=[float(x) for x in re.findall(r'\{[^}]*?([\d.]+)s\}',body)]
        names=[w,b] if stm=='w' else [b,w]
        per={w:[],b:[]}
        for i,t in enumerate(ts): per[names[i%2]].append(t)
        for n,l in per.items():
            # remaining clock estimate: 10 + 0.1*moves - sum
            tot[n].append((sum(l),len(l),10+0.1*len(l)-sum(l)))
            for i,t in enumerate(l): bymove[n][min(i//10,8)].append(t)
for n,l in tot.items():
    import statistics as s
    print(n,'games',len(l),'mean used %.2f'%s.mean(x[0] for x in l),'moves %.1f'%s.mean(x[1] for x in l),'mean left %.2f'%s.mean(x[2] for x in l),'min left %.2f'%min(x[2] for x in l))
    print('  per 10-move block mean s:',' '.join('%.3f'%s.mean(bymove[n][k]) for k in sorted(bymove[n])))
