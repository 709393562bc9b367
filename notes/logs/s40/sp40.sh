# Session 40, step 1 of rule40.md: a candidate network (EvalFile) against the built-in n2 in
# self-play, 3+0.03, 1 thread each, two games at a time, openings.epd with both colours, SPRT 0/10.
# Run in /work/data/s40:  NET=d30.nnue bash sp40.sh
cd ${DIR:-/work/data/s40}
B=${B:-./bastion-s40}
TAG=${TAG:-sp40}
$B match --engine name=${NAME:-cand} cmd=$B option.EvalFile=$PWD/${NET:?} --engine name=n2 cmd=$B --tc 3+0.03 \
  --games ${GAMES:-500} --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
