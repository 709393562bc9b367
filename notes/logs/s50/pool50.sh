#!/bin/bash
# Session 50: pool45.sh with the PGO build of main with V49 built in (768 units, bench 1,799,845)
# as generator, its sha256 appended to the pool's binary.sha256; seeds from 5001 mark its units.
# Stop after the current unit: touch /work/data/pool/STOP (and delete it before restarting).
export B=${B:-/work/data/s50/bastion-pgo} FIRST=${FIRST:-5001} LAST=${LAST:-5040}
sha256sum $B >> /work/data/pool/binary.sha256
exec bash "$(dirname "$(readlink -f "$0")")/../s45/pool45.sh"
