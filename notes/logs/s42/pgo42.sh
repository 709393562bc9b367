# Session 42 (rule42d.md): the PGO build against the plain native build of the same engine, 3+0.03,
# 400 games without an SPRT stop. Run in /work/data/s42 with bastion-pgo (scripts/build-pgo.sh's
# target/release/bastion) and bastion-s40 (plain native build of the shipped engine).
cd ${DIR:-/work/data/s42}
TAG=${TAG:-pgo42}
./bastion-pgo match --engine name=pgo cmd=$PWD/bastion-pgo --engine name=plain cmd=$PWD/bastion-s40 --tc 3+0.03 \
  --games ${GAMES:-400} --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
