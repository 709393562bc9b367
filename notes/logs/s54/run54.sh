# Session 54: the three switches of rule54.md, one after another (about 20 min each).
set -u
L=$(cd "$(dirname "$0")" && pwd)
for t in NonPawnCorr MoveCorr ProbCut; do
  DIR=/work/data/s54 B=bastion-c TAG="$t" OPTS="option.$t=true" bash "$L/../s53/sp53.sh"
done
