#!/usr/bin/env bash
# Search ablation on WAC at a fixed node budget (the thesis, Table 8.2, redone for Bastion).
# One row per search switch turned away from its default; one thread, 64 MB hash, so every row
# repeats exactly on a loaded machine. Summarise with summarize_epd.py.
#
# Usage: scripts/experiments/ablation.sh OUT_DIR [NODES]
#   BASTION  engine binary (default target/debug/bastion)
#   EPD      suite (default ../shared/data/epd/wac.epd, relative to the repository root)
set -euo pipefail
out=${1:?usage: ablation.sh OUT_DIR [NODES]}
nodes=${2:-250000}
B=${BASTION:-target/debug/bastion}
EPD=${EPD:-../shared/data/epd/wac.epd}
mkdir -p "$out"

plain="--option Aspiration=false --option NullMove=false --option LateMoveReductions=false \
--option LateMovePruning=false --option Futility=false --option ReverseFutility=false \
--option Razoring=false --option SEEPruning=false --option CheckExtension=false \
--option SingularExtension=false --option InternalIterativeReduction=false \
--option Killers=false --option History=false --option CounterMoves=false \
--option QSearchChecks=false"

run() { # name, extra epd arguments...
  local name=$1; shift
  [ -s "$out/$name.json" ] && return 0
  "$B" epd "$EPD" --engine "$B uci" --nodes "$nodes" --threads 1 --hash 64 "$@" --json \
    > "$out/$name.json.tmp"
  mv "$out/$name.json.tmp" "$out/$name.json"
  echo "$(date -u +%H:%M:%S) $name done"
}

run default
for opt in Aspiration=false NullMove=false LateMoveReductions=false LateMovePruning=false \
    Futility=false ReverseFutility=false Razoring=false SEEPruning=false CheckExtension=false \
    SingularExtension=false InternalIterativeReduction=false Killers=false History=false \
    CounterMoves=false QSearchChecks=false AdaptiveDepthControl=true EnhancedTTCutoff=true; do
  run "$opt" --option "$opt"
done
run "CheckExtension=false+SingularExtension=false" --option CheckExtension=false --option SingularExtension=false
run "Killers=false+History=false" --option Killers=false --option History=false
run "AdaptiveDepthControl=true+LateMoveReductions=false" --option AdaptiveDepthControl=true --option LateMoveReductions=false
# shellcheck disable=SC2086
run plain $plain
# shellcheck disable=SC2086
run plain+NullMove $plain --option NullMove=true
# The thesis's columns: alpha-beta without the table, then null move at a fixed R = 2, 3, 4,
# each with and without the table. Without a table no node has a hash move, so internal
# iterative reduction (already off in `plain`) would cut every node.
# shellcheck disable=SC2086
run plain+TT=false $plain --option TranspositionTable=false
for r in 2 3 4; do
  # shellcheck disable=SC2086
  run "plain+R$r" $plain --option NullMove=true --option NullMoveReduction=$r
  # shellcheck disable=SC2086
  run "plain+R$r+TT=false" $plain --option NullMove=true --option NullMoveReduction=$r --option TranspositionTable=false
done
# The same switches in the full engine.
run "TranspositionTable=false+InternalIterativeReduction=false" --option TranspositionTable=false \
  --option InternalIterativeReduction=false
for r in 2 3 4; do
  run "NullMoveReduction=$r" --option NullMoveReduction=$r
done
