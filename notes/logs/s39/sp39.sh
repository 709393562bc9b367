# Session 39, step 1 of rule39.md and rule39b.md: a candidate option against the default in
# self-play, 3+0.03, 1 thread each, two games at a time, openings.epd with both colours, SPRT 0/10.
# Run in /work/data/s39. rule39.md:  bash sp39.sh   (HandEvalPct=30, 500 games, sp39.*)
# rule39b.md: B=./bastion-s39t NAME=tempo15 OPT=option.NetTempo=15 GAMES=400 TAG=sp39b bash sp39.sh
cd ${DIR:-/work/data/s39}
B=${B:-./bastion-s39h}
TAG=${TAG:-sp39}
$B match --engine name=${NAME:-hand30} cmd=$B ${OPT:-option.HandEvalPct=30} --engine name=base cmd=$B --tc 3+0.03 \
  --games ${GAMES:-500} --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
