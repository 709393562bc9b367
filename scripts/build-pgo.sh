#!/usr/bin/env bash
# Builds target/release/bastion with profile-guided optimisation (PGO): an instrumented build
# searches the bench positions to depth 16, and the final build is optimised with that profile.
# The search is the same (`bastion bench` prints the same node signature); only the speed
# changes. About four minutes on two cores.
#
# Needs llvm-profdata from the toolchain's LLVM: `rustup component add llvm-tools`.
# RUSTFLAGS, if set, replaces the default `-C target-cpu=native`.
set -euo pipefail
cd "$(dirname "$0")/.."

profdata=$(find "$(rustc --print sysroot)" -name llvm-profdata -type f 2>/dev/null | head -n 1)
if [ -z "$profdata" ]; then
    echo "build-pgo: llvm-profdata not found; run 'rustup component add llvm-tools'," >&2
    echo "or build without PGO: cargo build --release -p bastion-cli" >&2
    exit 1
fi

flags=${RUSTFLAGS:--C target-cpu=native}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "build-pgo: 1/3 instrumented build (target/pgo-gen)" >&2
RUSTFLAGS="$flags -Cprofile-generate=$work/raw" cargo build --release -p bastion-cli --target-dir target/pgo-gen
echo "build-pgo: 2/3 profiling run (bench 16)" >&2
target/pgo-gen/release/bastion bench 16 >&2
"$profdata" merge -o "$work/bastion.profdata" "$work/raw"
echo "build-pgo: 3/3 optimised build (target/release)" >&2
RUSTFLAGS="$flags -Cprofile-use=$work/bastion.profdata" cargo build --release -p bastion-cli
target/release/bastion bench
