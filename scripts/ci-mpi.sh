#!/usr/bin/env bash
# The MPI tests, called by .ci/run: builds `bastion` with `--features mpi` and runs
# crates/cluster/tests/mpi.rs, which starts `bastion cluster epd` under mpirun with 2, 3 and 4
# ranks and `bastion cluster match` with 2, crates/cluster/tests/mpi_uci.rs, which drives
# `bastion cluster uci` as a GUI does at 2 and 4 ranks (oversubscribed, so two cores are
# enough), and crates/cluster/tests/mpi_tb.rs,
# which compares `bastion cluster tb` at 2 and 4 ranks with `bastion tb gen` byte for byte.
# Without Open MPI it skips with a message.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v mpirun >/dev/null 2>&1 || missing+=("mpirun (openmpi-bin)")
command -v mpicc >/dev/null 2>&1 || missing+=("mpicc (libopenmpi-dev)")
# The mpi crate generates its bindings with bindgen, which loads libclang.
if ! ldconfig -p 2>/dev/null | grep -q 'libclang[-.0-9]*\.so'; then
  missing+=("libclang (libclang-dev)")
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "ci-mpi: MPI tests skipped: not installed: ${missing[*]}"
  echo "ci-mpi: on Debian: apt-get install libopenmpi-dev openmpi-bin libclang-dev"
  exit 0
fi
mpirun --version | head -n 1

# The whole workspace, as .ci/run's `cargo test --workspace` built it, with the `mpi` feature
# added: only the cluster and CLI crates compile again. Selecting those two packages alone
# would unify features differently and rebuild every crate below them.
cargo clippy --workspace --all-targets --features bastion-cli/mpi -- -D warnings
# Only the three MPI test targets and the `bastion` binary they start: cargo builds a
# package's binaries for its integration tests, so one small CLI test target (perft_cli)
# brings the binary with the same profile and features; `cargo build` would resolve
# features without the dev-dependencies and rebuild the workspace.
mpi_tests=(--test mpi --test mpi_uci --test mpi_tb)
cargo test --workspace --features bastion-cli/mpi --no-run "${mpi_tests[@]}" --test perft_cli
# A later build without the feature rewrites target/debug/bastion: the tests run a copy.
# Where cargo put it: CARGO_TARGET_DIR when set, else target/.
built="${CARGO_TARGET_DIR:-target}"
mkdir -p target/ci-mpi
cp "$built/debug/bastion" target/ci-mpi/bastion
export BASTION_MPI_BIN="$PWD/target/ci-mpi/bastion"
# Containers often run as root, which mpirun refuses without these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The five-man distributed table at 4 ranks only, in the rerun after a killed rank (2 ranks too
# locally by default): each run is minutes on two cores, and the four-man one is still checked
# at 2 and 4 ranks.
export BASTION_MPI_TB_FIVE_MAN_RANKS="${BASTION_MPI_TB_FIVE_MAN_RANKS-}"
# One job at a time: each one already runs up to four ranks on the machine's cores.
cargo test --workspace --features bastion-cli/mpi "${mpi_tests[@]}" -- --ignored --test-threads 1
