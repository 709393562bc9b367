#!/bin/bash
# Session 47: pool45.sh with the new shipped engine (main after the S512 merge, PGO build, bench
# 1,872,326) as generator, its sha256 appended to the pool's binary.sha256; seeds from 4701 mark
# S512's units. Stop after the current unit: touch /work/data/pool/STOP.
export B=${B:-/work/data/s47/bastion-pgo} FIRST=${FIRST:-4701} LAST=${LAST:-4740}
sha256sum $B >> /work/data/pool/binary.sha256
exec bash "$(dirname "$(readlink -f "$0")")/../s45/pool45.sh"
