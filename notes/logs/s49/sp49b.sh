# Session 49 (rule49b.md): wait for train49.sh, then V49 on the 768 release build against S512 on
# the 512 release build (both of main at 03c34f8, only HIDDEN differs), 3+0.03, 1 thread each,
# two games at a time, openings.epd with both colours, 300 games. Run in /work/data/s49.
cd /work/data/s49
while [ ! -f time49.txt ]; do sleep 20; done
echo "$(date -u +%T) self-play V49" >> run49.log
./bastion-h512 match --engine name=V49 cmd=$PWD/bastion-h768 option.EvalFile=$PWD/V49.nnue \
  --engine name=S512 cmd=$PWD/bastion-h512 --tc 3+0.03 --games ${GAMES:-300} --concurrency 2 \
  --openings /work/shared/data/openings.epd --repeat --pgn sp49b.pgn > sp49b.log 2>&1
echo "$(date -u +%T) $(grep '^Games ' sp49b.log | tail -1)" >> run49.log
