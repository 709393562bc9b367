#!/bin/bash
# usage: nodes.sh N bin...; fixed-node searches (64 MiB hash) on 3 positions, prints median total ms per binary
n=$1; shift
declare -A res
fens=("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R1BQ1RK1 w - - 0 9" "r2q1rk1/1b2bppp/p2p1n2/1p2p3/3NP3/1BN1B3/PPP2PPP/R2Q1RK1 w - - 0 12" "2r2rk1/pp1bqppp/2n1p3/3pP3/3P4/P1PB1N2/5PPP/R2Q1RK1 w - - 0 15")
for i in $(seq $n); do
  for b in "$@"; do
    t0=$(date +%s%N)
    for f in "${fens[@]}"; do { echo "position fen $f"; echo "go nodes 1500000"; } | $b uci > /dev/null 2>&1; done
    t1=$(date +%s%N)
    res[$b]="${res[$b]} $(( (t1 - t0) / 1000000 ))"
  done
done
for b in "$@"; do echo "$b: $(echo ${res[$b]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END{print "median ms", a[int((NR+1)/2)], "min", a[1], "n", NR}')"; done
