#!/bin/bash
# usage: speed.sh N binA binB ... ; alternates bench runs, prints median nps per binary
n=$1; shift
declare -A res
for i in $(seq $n); do
  for b in "$@"; do
    v=$($b bench 2>&1 | awk '/^nps/{print $2}')
    res[$b]="${res[$b]} $v"
  done
done
for b in "$@"; do
  echo "$b: $(echo ${res[$b]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END{print "median", a[int((NR+1)/2)], "max", a[NR], "n", NR}')"
done
