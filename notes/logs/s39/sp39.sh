# Session 39, step 1 of rule39.md: HandEvalPct=30 against the default in self-play, 3+0.03,
# 1 thread each, two games at a time, openings.epd with both colours, SPRT 0/10. Run in /work/data/s39.
cd ${DIR:-/work/data/s39}
B=${B:-./bastion-s39h}
$B match --engine name=hand30 cmd=$B option.HandEvalPct=30 --engine name=base cmd=$B --tc 3+0.03 \
  --games 500 --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --pgn sp39.pgn > sp39.log 2>&1
date >> sp39.log
