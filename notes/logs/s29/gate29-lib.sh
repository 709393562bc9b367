# Session 29: quantised loss of a network on the seven held-out sets of sessions 25-28
# (g25: self-play game positions; the m sets: moved-on positions labelled at depth 7).
# Sourced in /work/data/s29; B must be a build at least as wide as the networks it reads.
VALS="../s25/g25-val.csv ../s25/m25-val.csv ../s25/m25b-val.csv ../s26/m26-val.csv ../s27/m27-val.csv ../s28/m28-val.csv ../s28/m28b-val.csv"
TRAIN_VAL=../s28/m28b-val.csv
. /work/main/notes/logs/s25/gate25-lib.sh
B=${B29:-../bastion-w512}
