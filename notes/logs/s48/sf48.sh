# Session 48 (rule48.md, measure 3): session 46's sf46.sh with T48 on the shipped PGO build, in
# /work/data/s48, files named sf48-FROM-TO. Usage: FROM=1 TO=30 bash sf48.sh
DIR=/work/data/s48 TAG=sf48 B=/work/data/s47/bastion-pgo-fused NET=T48.nnue \
  exec bash "$(dirname "$(readlink -f "$0")")/../s46/sf46.sh"
