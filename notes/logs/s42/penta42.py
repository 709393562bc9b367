"""Session 42: Elo and 95 % error bar from pentanomial counts (several runs are summed);
LOS (one-sided normal) added in session 53.
Usage: python3 penta42.py P0,P1,P2,P3,P4 [P0,...]  (pairs scoring 0, 0.5, 1, 1.5, 2)"""
import sys,math
p=[sum(x) for x in zip(*[list(map(int,a.split(','))) for a in sys.argv[1:]])]
n=sum(p); s=[0,.25,.5,.75,1]
m=sum(pi*si for pi,si in zip(p,s))/n
v=sum(pi*(si-m)**2 for pi,si in zip(p,s))/n
se=math.sqrt(v/n)
elo=lambda x:-400*math.log10(1/x-1)
los=0.5*(1+math.erf((m-.5)/se/math.sqrt(2)))
print(p,n*2,'games score %.4f elo %.1f ± %.1f LOS %.1f %%'%(m,elo(m),(elo(m+1.96*se)-elo(m-1.96*se))/2,100*los))
