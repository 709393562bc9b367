# Session 46 (rule46.md, measure 3): a candidate against the built-in n2 in self-play, 3+0.03,
# fixed number of games, no early stop. Run in /work/data/s46:
#   `bash sp46.sh 512 300` (S512 on the exp-512 build) or `bash sp46.sh 256 N` (S256, shipped build).
cd ${DIR:-/work/data/s46}
N2=/work/data/s44/bastion-pgo
case $1 in
  512) C=/work/data/s46/bastion-512-pgo ;;
  256) C=$N2 ;;
  *) echo "usage: sp46.sh 512|256 GAMES" >&2; exit 2 ;;
esac
$N2 match --engine name=S$1 cmd=$C option.EvalFile=$PWD/S$1.nnue --engine name=n2 cmd=$N2 --tc 3+0.03 \
  --games $2 --concurrency 2 --openings /work/shared/data/openings.epd --repeat --pgn sp46-$1.pgn > sp46-$1.log 2>&1
date >> sp46-$1.log
