# Session 54 (rule54b.md): two more switches after run54.sh, on bastion-c2.
set -u
L=$(cd "$(dirname "$0")" && pwd)
for t in DeeperShallower SingularNeg; do
  DIR=/work/data/s54 B=bastion-c2 TAG="$t" OPTS="option.$t=true" bash "$L/../s53/sp53.sh"
done
