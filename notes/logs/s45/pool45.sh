#!/bin/bash
# Session 45: self-play data for a persistent pool. Units of 10,000 games at 2,000 nodes a move,
# each with its own seed, written to a temporary name and renamed when complete. B= picks the
# generating binary (session 44's PGO build by default).
cd /work/data/pool
B=${B:-/work/data/s44/bastion-pgo}
for seed in $(seq ${FIRST:-4501} ${LAST:-4520}); do
  [ -f sp-$seed.csv ] && continue
  [ -f STOP ] && break
  echo "$(date -u +%T) start $seed" >> pool.log
  $B tune --generate 10000 --nodes 2000 --threads 2 --scores --seed $seed --data part-$seed.csv > gen-$seed.log 2>&1 \
    && mv part-$seed.csv sp-$seed.csv && echo "$(date -u +%T) done $seed $(wc -l < sp-$seed.csv)" >> pool.log
done
