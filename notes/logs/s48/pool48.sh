#!/bin/bash
# Session 48: pool45.sh with the PGO build of 5caf441 (S512 built in plus the mop-up term, bench
# 1,871,381) as generator, its sha256 appended to the pool's binary.sha256; seeds from 4801 mark
# units whose bare-king wins are recorded as wins. Stop after the current unit: touch
# /work/data/pool/STOP (and delete it before restarting).
export B=${B:-/work/data/s48/bastion-pgo} FIRST=${FIRST:-4801} LAST=${LAST:-4840}
sha256sum $B >> /work/data/pool/binary.sha256
exec bash "$(dirname "$(readlink -f "$0")")/../s45/pool45.sh"
