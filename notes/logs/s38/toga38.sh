# Session 38: the reliability check for a build, 500 games against Toga II at 2+0.02 refereed by
# python-chess (crates/engine/tools/referee.py keeps both clocks from the wall time of each go), Hash 64
# and 1 thread each, openings of ../shared/data/openings.epd with both colours, one game at a time.
# Usage: bash toga38.sh BINARY TAG   (run in /work/data/s38)
cd ${DIR:-/work/data/s38}
python3 /work/main/crates/engine/tools/referee.py $1 /usr/games/toga2 --games ${GAMES:-500} --tc 2+0.02 \
  --opt-a Hash=64 --opt-b Hash=64 --log toga500-$2.log --pgn toga500-$2.pgn > toga500-$2.out 2>&1
date >> toga500-$2.out
