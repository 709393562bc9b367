# Session 33: gate31-lib.sh's ten held-out sets, read by bastion-s33 (the king-bucket build reads
# networks with and without buckets). Sourced in /work/data/s31; `ev NET`.
. /work/main/notes/logs/s31/gate31-lib.sh
B=../bastion-s33
