# Session 37: 2 threads against 1 thread at equal time (2+0.02), the shipped engine (bastion-s37,
# the build of 178ea44), openings 1-50 of ../shared/data/openings.epd with both colours, one game at
# a time so the 2-thread engine has both cores while it thinks (no pondering). Run in /work/data/s37.
cd ${DIR:-/work/data/s37}
B=${B:-./bastion-s37}
$B match --engine name=t2 cmd=$B option.Threads=2 option.Hash=64 --engine name=t1 cmd=$B option.Threads=1 option.Hash=64 \
  --tc 2+0.02 --games ${GAMES:-100} --concurrency 1 --openings open1-100.epd --repeat --pgn threads37.pgn > threads37.log 2>&1
date >> threads37.log
