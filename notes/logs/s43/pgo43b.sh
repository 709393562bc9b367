# Session 43 (rule43b.md): the PGO build against the plain native build of the same engine, 3+0.03,
# 400 games without an SPRT stop. Run in /work/data/s43 with bastion-pgo (scripts/build-pgo.sh's
# target/release/bastion) and bastion-plain (plain native build of the shipped engine).
cd ${DIR:-/work/data/s43}
TAG=${TAG:-pgo43b}
./bastion-pgo match --engine name=pgo cmd=$PWD/bastion-pgo --engine name=plain cmd=$PWD/bastion-plain --tc 3+0.03 \
  --games ${GAMES:-400} --concurrency 2 --openings /work/shared/data/openings.epd --repeat \
  --pgn $TAG.pgn > $TAG.log 2>&1
date >> $TAG.log
