#!/usr/bin/env bash
# Reruns the measurements of docs/experiments.md one after another, each single-threaded, so
# that on a shared machine only one core is used. Fixed nodes or fixed depth wherever the seed's
# protocol allows it, so that the figures repeat exactly whatever the load; the timed rows say so.
#
# Usage: scripts/experiments/run_all.sh OUT_DIR [SECTION...]
#   sections: ablation etc adc repetition solver krk fortress suites suites-time progressive
#   wac-time openx techniques suites-15s suites-seed-time progressive-games (default: all but the
#   last six; openx is three 200-game matches on both cores, half an hour, and wants a release
#   BASTION; techniques is eleven 400-game matches at fixed nodes on both cores; suites-15s and
#   suites-seed-time are timed runs of 54 and 95 minutes; progressive-games is 2,700 games, about
#   an hour at the default 0.3 s a turn)
#   BASTION  engine binary (default target/debug/bastion)
#   DATA     shared data (default ../shared/data)
#   STOCKFISH, ETHEREAL  other engines (default /usr/games/stockfish, /usr/games/ethereal-chess)
set -euo pipefail
out=${1:?usage: run_all.sh OUT_DIR [SECTION...]}
shift
sections=${*:-ablation etc adc repetition solver krk fortress suites suites-time progressive}
here=$(cd "$(dirname "$0")" && pwd)
B=${BASTION:-target/debug/bastion}
DATA=${DATA:-../shared/data}
SF=${STOCKFISH:-/usr/games/stockfish}
ETH=${ETHEREAL:-/usr/games/ethereal-chess}
mkdir -p "$out"
log() { echo "$(date -u +%H:%M:%S) $*"; }
# once FILE CMD...: writes CMD's output to FILE unless FILE is already there (finished runs are
# kept on a rerun; an interrupted one leaves only FILE.part).
once() { local f=$1; shift; [ -s "$f" ] && return 0; "$@" > "$f.part" && mv "$f.part" "$f"; }

for section in $sections; do
  log "start $section (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  case $section in
  ablation)
    BASTION=$B EPD=$DATA/epd/wac.epd "$here/ablation.sh" "$out/ablation-250k" 250000 ;;
  etc)
    python3 "$here/fixed_depth.py" --engine "$B uci" --epd "$DATA/epd/wac.epd" --depth 5 --depth 9 \
      --config base: --config etc:EnhancedTTCutoff=true > "$out/etc-wac-d5-d9.jsonl"
    python3 "$here/fixed_depth.py" --engine "$B uci" --epd "$DATA/epd/wac.epd" --depth 13 --limit 100 \
      --config base: --config etc:EnhancedTTCutoff=true > "$out/etc-wac-d13.jsonl" ;;
  repetition)
    # The thesis's Tables 6.2-6.3: repetition draws in the search on and off, rook endings.
    python3 "$here/fixed_depth.py" --engine "$B uci" --epd "$here/rook_endings.epd" --depth 12 --depth 20 \
      --config base: --config norep:RepetitionDraws=false > "$out/repetition-rook-endings.jsonl" ;;
  adc)
    # The first 10 mates of each length 5-11 of mates2000; the mate prover is switched off so
    # that the moves are the search's own.
    for n in 5 6 7 8 9 10 11; do grep -m 10 "bm #$n;" "$DATA/epd/mates2000.epd"; done \
      > "$out/mates5-11.epd"
    python3 "$here/fixed_depth.py" --engine "$B uci" --epd "$out/mates5-11.epd" --depth 18 \
      --config base:MateSolver=false --config adc:MateSolver=false,AdaptiveDepthControl=true \
      > "$out/adc-mates-d18.jsonl" ;;
  solver)
    "$B" solve --epd "$DATA/epd/mates2000.epd" --min-mate 6 --max-mate 6 --mates-only --csv \
      > "$out/solver-m6.csv" 2>/dev/null
    # Per iteration (Table 6.4): "#k" for k = 1..6 proves no shorter mate and costs the
    # iterations 1..k, so differences give each iteration's nodes. The hardest #6 by nodes:
    line=$(sort -t, -k7,7n "$out/solver-m6.csv" | tail -1 | cut -d, -f1)   # a line of the file
    sed -n "${line}p" "$DATA/epd/mates2000.epd" > "$out/m6-hardest.epd"
    for k in 1 2 3 4 5 6; do
      sed "s/bm #6;/bm #$k;/" "$out/m6-hardest.epd" > "$out/m6-hardest-$k.epd"
      "$B" solve --epd "$out/m6-hardest-$k.epd" --csv --time-limit 120 2>/dev/null | tail -1
    done > "$out/solver-m6-iterations.csv" ;;
  krk)
    "$B" tb gen KRK --dir "$out/tables" --threads 1 > /dev/null
    probe="$B tb probe --dir $out/tables --json"
    python3 "$here/krk.py" --engine "$B uci" --games 100 --depth 10 --seed 1 --probe "$probe" \
      > "$out/krk-d10.jsonl"
    python3 "$here/krk.py" --engine "$B uci" --games 100 --depth 10 --seed 1 --probe "$probe" \
      --option "EvalFile=<empty>" > "$out/krk-d10-handwritten.jsonl"
    # The article's flat evaluation: no mop-up term (with and without the mate solver).
    python3 "$here/krk.py" --engine "$B uci" --games 100 --depth 10 --seed 1 --probe "$probe" \
      --option MopUp=false > "$out/krk-d10-flat.jsonl"
    python3 "$here/krk.py" --engine "$B uci" --games 100 --depth 10 --seed 1 --probe "$probe" \
      --option MopUp=false --option MateSolver=false > "$out/krk-d10-flat-nosolver.jsonl" ;;
  fortress)
    tsv=crates/fortress/tests/data/seed_figures.tsv
    grep -v '^#' "$tsv" | while IFS=$'\t' read -r id fen _; do
      "$B" fortress "$fen" --max-depth 14 --no-breakthrough --option Threads=1 --json < /dev/null \
        --plot "$out/fortress-$id-bastion.svg" --time-plot "$out/fortress-$id-bastion-time.svg" \
        > "$out/fortress-$id-bastion.json"
      "$B" fortress "$fen" --max-depth 14 --no-breakthrough --engine "$SF" --option Threads=1 --json < /dev/null \
        --plot "$out/fortress-$id-stockfish.svg" --time-plot "$out/fortress-$id-stockfish-time.svg" \
        > "$out/fortress-$id-stockfish.json"
    done ;;
  suites)
    # Every engine at the same fixed node budget, one thread, 64 MB.
    for suite in bratko-kopec bt2630 lct2 kaufman; do
      for e in "bastion:$B uci" "stockfish:$SF" "ethereal:$ETH"; do
        "$B" epd "$DATA/epd/$suite.epd" --engine "${e#*:}" --nodes 1000000 --threads 1 --hash 64 \
          --json > "$out/suite-$suite-${e%%:*}-1M.json"
      done
    done
    for e in "stockfish:$SF" "ethereal:$ETH"; do
      "$B" epd "$DATA/epd/wac.epd" --engine "${e#*:}" --nodes 250000 --threads 1 --hash 64 \
        --json > "$out/suite-wac-${e%%:*}-250k.json"
    done
    # ECM-GCP and Arasan 2024: Bastion and Stockfish only (Ethereal stops at depth 1 under nodes).
    for suite in ecmgcp arasan2024; do
      for e in "bastion:$B uci" "stockfish:$SF"; do
        "$B" epd "$DATA/epd/$suite.epd" --engine "${e#*:}" --nodes 1000000 --threads 1 --hash 64 \
          --json > "$out/suite-$suite-${e%%:*}-1M.json"
      done
    done ;;
  suites-time)
    # Ethereal 12 stops after depth 1 under `go nodes`, so the engines are also compared at a
    # fixed time a position (timed: the load matters).
    for suite in bratko-kopec bt2630 lct2 kaufman; do
      for e in "bastion:$B uci" "stockfish:$SF" "ethereal:$ETH"; do
        "$B" epd "$DATA/epd/$suite.epd" --engine "${e#*:}" --time 1s --threads 1 --hash 64 \
          --json > "$out/suite-$suite-${e%%:*}-1s.json"
      done
    done ;;
  suites-15s)
    # The thesis's Tables 8.3-8.4: Bratko-Kopec and BT-2630 at 15 s a position without null
    # move, with R = 2, with R = 3, and (Bastion's default) adaptive R. Timed: 54 minutes of a
    # core that nothing else uses. A finished file is kept on a rerun.
    for suite in bratko-kopec bt2630; do
      for c in nonull:NullMove=false r2:NullMoveReduction=2 r3:NullMoveReduction=3 adaptive:; do
        opt=(); [ -n "${c#*:}" ] && opt=(--option "${c#*:}")
        once "$out/suite-$suite-${c%%:*}-15s.json" "$B" epd "$DATA/epd/$suite.epd" --engine "$B uci" \
          --time 15s --times 1,5 --threads 1 --hash 64 "${opt[@]}" --json
      done
    done ;;
  suites-seed-time)
    # Table 8.5's suites at the thesis's own time a position, Bastion alone (95 minutes of a
    # core that nothing else uses; SEED_SUITES="suite:time ..." picks some). A finished file is
    # kept on a rerun.
    for st in ${SEED_SUITES:-bratko-kopec:30s bt2630:45s kaufman:60s lct2:60s}; do
      once "$out/suite-${st%%:*}-bastion-${st#*:}.json" "$B" epd "$DATA/epd/${st%%:*}.epd" --engine "$B uci" \
        --time "${st#*:}" --times 1,5,15 --threads 1 --hash 64 --json
    done ;;
  progressive)
    tests=crates/progressive/tests/data/mates.txt
    for v in astar best-first; do
      for h in coverage manhattan squares figures baseline; do
        "$B" progressive bench-mates "$tests" --per-length 10 --time 2 --heuristic $h --variant $v \
          --json > "$out/prog-$v-$h.json"
      done
    done
    "$B" progressive bench-mates "$tests" --per-length 10 --time 2 --no-promotion --json > "$out/prog-astar-coverage-nopromo.json"
    "$B" progressive bench-mates "$tests" --per-length 10 --time 2 --no-pin --json > "$out/prog-astar-coverage-nopin.json" ;;
  progressive-games)
    # Janko's game experiments as round robins at PROG_TIME seconds a turn (default 0.3), with
    # his game counts: Table 4.1 (five mate heuristics, 600 games), Table 5.2 (look-ahead depth
    # 0/1/2, 300 games), Table 5.3 (without the promotion terms, king safety or both, 300 games
    # at depth 0 and at depth 1). Finished pairs are kept on a rerun.
    t=${PROG_TIME:-0.3}
    rr() { python3 "$here/progressive_rr.py" --bastion "$B" --time "$t" "$@"; }
    rr --out "$out/prog-t41-$t" --games 60 --seed 410 --player coverage=heuristic=coverage \
      --player manhattan=heuristic=manhattan --player squares=heuristic=squares \
      --player figures=heuristic=figures --player baseline=heuristic=baseline > "$out/prog-t41-$t.md"
    rr --out "$out/prog-t52-$t" --games 100 --seed 520 --player depth0=depth=0 --player depth1=depth=1 \
      --player depth2=depth=2 > "$out/prog-t52-$t.md"
    for d in 0 1; do
      rr --out "$out/prog-t53-d$d-$t" --games 50 --seed 53$d --player all=depth=$d \
        --player no-promotion=depth=$d,eval-promotion=off --player no-king-safety=depth=$d,king-safety=off \
        --player neither=depth=$d,eval-promotion=off,king-safety=off > "$out/prog-t53-d$d-$t.md"
    done
    # Table 6.1: White's share by first move, 300 games with the wide book for both sides.
    once "$out/prog-t61-$t.json" "$B" progressive selfplay --games 300 --time "$t" \
      --variant-a wide-book=on --variant-b wide-book=on --seed 610 --json ;;
  wac-time)
    "$B" epd "$DATA/epd/wac.epd" --engine "$B uci" --time 5s --times 1,2 --threads 1 --hash 64 \
      --json > "$out/wac-5s.json" ;;
  openx)
    # Thesis §6.6: the control without a book, the book learned from each game, the book frozen.
    common=(--tc 2+0.02 --repeat --concurrency 2 --resign-score 600 --resign-moves 3 --draw-score 10
      --draw-moves 8 --draw-after 30 --max-moves 150 --games 200)
    book=(--engine name=Bastion-book "cmd=$B" option.Hash=16 book="$out/learned.bin" bookdepth=16)
    eth=(--engine name=Ethereal "cmd=$ETH" option.Hash=16)
    rm -f "$out/learned.bin"
    "$B" match --engine name=Bastion "cmd=$B" option.Hash=16 "${eth[@]}" "${common[@]}" \
      --pgn "$out/openx-control.pgn" > "$out/openx-control.txt"
    "$B" match "${book[@]}" "${eth[@]}" "${common[@]}" --pgn "$out/openx-learning.pgn" \
      --learn-book "$out/learned.bin" --learn-engine Bastion-book --learn-depth 16 > "$out/openx-learning.txt"
    "$B" match "${book[@]}" "${eth[@]}" "${common[@]}" --pgn "$out/openx-frozen.pgn" > "$out/openx-frozen.txt" ;;
  techniques)
    # Thesis Table 7.1 in games: the engine with one technique taken out against the full engine,
    # 400 games each at 8,000 nodes a move (so the load does not matter), both cores, resumable.
    common=(--nodes 8000 --openings "$DATA/openings.epd" --repeat --games 400 --concurrency 2
      --resign-score 600 --resign-moves 3 --draw-score 10 --draw-moves 8 --draw-after 30 --max-moves 150)
    plain=(option.Aspiration=false option.NullMove=false option.LateMoveReductions=false
      option.LateMovePruning=false option.Futility=false option.ReverseFutility=false option.Razoring=false
      option.SEEPruning=false option.CheckExtension=false option.SingularExtension=false
      option.InternalIterativeReduction=false option.Killers=false option.History=false
      option.CounterMoves=false option.QSearchChecks=false)
    row() { # name, options of the engine without the technique...
      local name=$1; shift
      # A finished row is kept: a resumed report no longer counts the faults of its old games.
      grep -qs '"finished": "completed"' "$out/t71-$name.json" && return 0
      "$B" match --engine name=full "cmd=$B uci" option.Hash=16 --engine "name=$name" "cmd=$B uci" \
        option.Hash=16 "$@" "${common[@]}" --pgn "$out/t71-$name.pgn" --resume --json > "$out/t71-$name.json.tmp"
      mv "$out/t71-$name.json.tmp" "$out/t71-$name.json"
    }
    row no-null-move option.NullMove=false
    row null-move-R2 option.NullMoveReduction=2
    row no-tt option.TranspositionTable=false option.InternalIterativeReduction=false
    row plain "${plain[@]}"
    row no-lmr option.LateMoveReductions=false
    row no-aspiration option.Aspiration=false
    row no-lmp option.LateMovePruning=false
    row no-futility option.Futility=false option.ReverseFutility=false option.Razoring=false
    row no-qsearch-checks option.QSearchChecks=false
    row no-extensions option.CheckExtension=false option.SingularExtension=false
    row no-killers-history option.Killers=false option.History=false ;;
  *) echo "unknown section $section" >&2; exit 2 ;;
  esac
  log "done $section (load: $(cut -d' ' -f1-3 /proc/loadavg))"
done
