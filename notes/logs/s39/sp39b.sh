# Session 39, step 1 of rule39b.md: NetTempo=15 against the default in self-play, 3+0.03,
# 1 thread each, two games at a time, openings.epd with both colours, SPRT 0/10. Run in /work/data/s39.
cd ${DIR:-/work/data/s39}
B=${B:-./bastion-s39t}
$B match --engine name=tempo15 cmd=$B option.NetTempo=15 --engine name=base cmd=$B --tc 3+0.03 \
  --games 400 --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --pgn sp39b.pgn > sp39b.log 2>&1
date >> sp39b.log
