#!/bin/bash
# Session 47: pool45.sh with the new shipped engine (main after the S512 merge, PGO build, bench
# 1,872,326) as generator. Same units (10,000 games at 2,000 nodes a move, own seed each, written
# to a temporary name and renamed when complete); seeds from 4701 mark S512's units.
# Stop after the current unit: touch /work/data/pool/STOP.
cd /work/data/pool
B=${B:-/work/data/s47/bastion-pgo}
sha256sum $B >> binary.sha256
for seed in $(seq ${FIRST:-4701} ${LAST:-4740}); do
  [ -f sp-$seed.csv ] && continue
  [ -f STOP ] && break
  echo "$(date -u +%T) start $seed" >> pool.log
  $B tune --generate 10000 --nodes 2000 --threads 2 --scores --seed $seed --data part-$seed.csv > gen-$seed.log 2>&1 \
    && mv part-$seed.csv sp-$seed.csv && echo "$(date -u +%T) done $seed $(wc -l < sp-$seed.csv)" >> pool.log
done
