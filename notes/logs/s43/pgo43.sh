# Session 43: what the PGO build gains on this machine, and whether a game-play profile does better
# than `bench 16` alone. Run from the repository root after sf43 (CPU-heavy).
set -euo pipefail
W=/work/data/s43
pd=$(find "$(rustc --print sysroot)" -name llvm-profdata -type f | head -n 1)
# 1. the default (generic x86-64) build, for comparison with the native ones
cargo build --release -p bastion-cli --target-dir /work/data/tgt-generic 2>&1 | tail -1
cp /work/data/tgt-generic/release/bastion $W/bastion-generic
# 2. a profile of the instrumented build (target/pgo-gen, profile dir /work/data/pgo-raw) from bench 16
#    plus 40 self-play games at 1+0.01
rm -rf /work/data/pgo-raw2 && mkdir -p /work/data/pgo-raw2
sed -n 31,50p /work/shared/data/openings.epd > $W/open31-50.epd
LLVM_PROFILE_FILE=/work/data/pgo-raw2/bench-%m.profraw target/pgo-gen/release/bastion bench 16 | tail -1
G=$PWD/target/pgo-gen/release/bastion
LLVM_PROFILE_FILE=/work/data/pgo-raw2/game-%p-%m.profraw $G match --engine name=a cmd=$G --engine name=b cmd=$G \
  --tc 1+0.01 --games 40 --concurrency 2 --openings $W/open31-50.epd --repeat --pgn $W/pgoprof43.pgn | tail -3
"$pd" merge -o /work/data/pgo-games.profdata /work/data/pgo-raw2
RUSTFLAGS="-C target-cpu=native -Cprofile-use=/work/data/pgo-games.profdata" \
  cargo build --release -p bastion-cli --target-dir /work/data/tgt-pgo3 2>&1 | tail -1
cp /work/data/tgt-pgo3/release/bastion $W/bastion-pgo3
cd $W
for b in generic plain pgo pgo3; do ./bastion-$b bench | grep nodes | tail -1; done
python3 /work/main/notes/logs/s41/nps41.py 3 ./bastion-generic:- ./bastion-plain:- ./bastion-pgo:- ./bastion-pgo3:-
