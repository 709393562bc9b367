# Session 45: for each game, the first move of Bastion that lowers the tablebase value for it, and the
# points that move cost (value before it minus the final result). Usage: python3 analyse45.py pos.tsv tb.out
import sys, collections
# inputs: pos5.tsv and tb output (same line order)
pos=[l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
tb=[l.rstrip('\n').split('\t') for l in open(sys.argv[2])]
val={'W':1,'D':0.5,'L':0}
games=collections.OrderedDict()
for p,t in zip(pos,tb):
    fen,mv,gid,ply,bt,score=p
    games.setdefault(gid,[]).append((fen,mv,int(ply),int(bt),float(score),t[0],t[1]))
covered=0; berr=0; serr=0; gain=0.0; loss_games=[]
for gid,rows in games.items():
    rows=[r for r in rows if r[5]!='-']
    if not rows: continue
    covered+=1
    final=rows[0][4]
    for fen,mv,ply,bt,score,b,a in rows:
        if val[a]<val[b]:
            if bt:
                berr+=1
                vb=val[b]  # value for bastion before its error
                g=vb-final
                if g>0:
                    gain+=g; loss_games.append((gid,ply,fen,mv,b,a,final))
                break
            else:
                serr+=1
print(f"games with tb positions {covered}, games with a bastion tb error {berr}, sf errors before it {serr}, points lost by bastion errors {gain}")
for x in loss_games: print(*x)
