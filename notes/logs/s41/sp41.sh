# Session 41, step 1 of rule41b.md: the candidate network against the control q0, both through
# EvalFile on the same binary (so only the threat inputs differ), 3+0.03, 1 thread each, two games at
# a time, openings.epd with both colours, SPRT 0/10, at most 400 games. Run in /work/data/s41.
cd ${DIR:-/work/data/s41}
B=${B:-./bastion-s41}
TAG=${TAG:-sp41}
$B match --engine name=${NAME:-tq} cmd=$B option.EvalFile=$PWD/${NET:-tq.nnue} \
  --engine name=${BASE_NAME:-q0} cmd=$B option.EvalFile=$PWD/${BASE_NET:-q0.nnue} --tc 3+0.03 \
  --games ${GAMES:-400} --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
