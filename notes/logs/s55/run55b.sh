# Session 55 (rule55b.md): two search switches, each on against the same binary with it off,
# 40,000 nodes a move, 600 games, through sp53.sh. /work/data/s55/bastion-c is the native build of
# the commit that added the switches.
for s in EvalDiffHist FailHighBlend; do
  DIR=/work/data/s55 B=bastion-c TAG=$s OPTS="option.$s=true" bash notes/logs/s53/sp53.sh &
done
wait
