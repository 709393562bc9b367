import sys,gzip,re,math
def load(p):
    op=gzip.open if p.endswith('.gz') else open
    t=op(p,'rt').read()
    res={}
    for g in t.split('[Event ')[1:]:
        # Keyed by the opening and Bastion's colour, so slices need not line up (session 56).
        fen=re.search(r'\[FEN "([^"]+)"\]',g).group(1)
        w=re.search(r'\[White "([^"]+)"\]',g).group(1)
        R=re.search(r'\[Result "([^"]+)"\]',g).group(1)
        s={'1-0':1,'0-1':0,'1/2-1/2':0.5}.get(R)
        if s is None: continue
        if w!='bastion': s=1-s
        res[(fen,w=='bastion')]=s
    return res
# Arguments: OLD NEW [OLD NEW ...]; pairs from each OLD/NEW couple are pooled (each couple is
# matched on its own). A pair is one opening played with both colours in both files.
d=[]; old=0.0
for i in range(1,len(sys.argv),2):
    a=load(sys.argv[i]); b=load(sys.argv[i+1])
    for fen in sorted({f for f,_ in b}):
        ks=[(fen,True),(fen,False)]
        if all(k in a and k in b for k in ks):
            d.append(sum(b[k] for k in ks)-sum(a[k] for k in ks))
            old+=sum(a[k] for k in ks)
n=len(d); m=sum(d)/n; sd=math.sqrt(sum((x-m)**2 for x in d)/(n-1))
print(f"pairs {n}: new-old mean {m:+.3f} points/pair, se {sd/math.sqrt(n):.3f}; per game {m/2*100:+.1f}% ± {sd/math.sqrt(n)/2*100:.1f}%")
print("old score on these", old/(2*n))
