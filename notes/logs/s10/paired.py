import sys,gzip,re,math
def load(p):
    op=gzip.open if p.endswith('.gz') else open
    t=op(p,'rt').read()
    res={}
    for g in t.split('[Event ')[1:]:
        r=re.search(r'\[Round "([^"]+)"\]',g).group(1)
        w=re.search(r'\[White "([^"]+)"\]',g).group(1)
        R=re.search(r'\[Result "([^"]+)"\]',g).group(1)
        s={'1-0':1,'0-1':0,'1/2-1/2':0.5}.get(R)
        if s is None: continue
        if w!='bastion': s=1-s
        res[r]=s
    return res
a=load(sys.argv[1]); b=load(sys.argv[2])
pairs=sorted({r.split('.')[0] for r in b})
d=[]
for p in pairs:
    ks=[p+'.1',p+'.2']
    if all(k in a and k in b for k in ks):
        d.append(sum(b[k] for k in ks)-sum(a[k] for k in ks))
n=len(d); m=sum(d)/n; sd=math.sqrt(sum((x-m)**2 for x in d)/(n-1))
print(f"pairs {n}: new-old mean {m:+.3f} points/pair, se {sd/math.sqrt(n):.3f}; per game {m/2*100:+.1f}% ± {sd/math.sqrt(n)/2*100:.1f}%")
print("old score on these", sum(a[p+s] for p in pairs for s in ('.1','.2') if p+'.1' in a and p+'.2' in a and p+'.1' in b and p+'.2' in b)/(2*n))
