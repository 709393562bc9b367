#!/bin/bash
# Session 60: rebuild the self-play pool (lost before session 52) with the shipped engine: session 59's
# PGO build of 656093c (V49 built in, bench 1,864,202). Same recipe as pool45.sh: units of 10,000 games
# at 2,000 nodes a move with search scores, seeds from 6001. Stop after the current unit:
# touch /work/data/pool/STOP (delete it before restarting); a partial part-*.csv is deleted on restart.
export B=${B:-/work/data/s59/bastion-s59-pgo} FIRST=${FIRST:-6001} LAST=${LAST:-6200}
mkdir -p /work/data/pool && rm -f /work/data/pool/part-*.csv
sha256sum $B >> /work/data/pool/binary.sha256
exec bash "$(dirname "$(readlink -f "$0")")/../s45/pool45.sh"
