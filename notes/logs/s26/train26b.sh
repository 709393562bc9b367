# Session 26: three more mixes around c13a (same gate as train26.sh). Run in /work/data/s26.
cd /work/data/s26
. /work/main/notes/logs/s26/gate26-lib.sh
cat all-mo.csv all-mo.csv all-mo.csv all-mo.csv $S/sp25-tr.csv sp26-tr.csv > a4sp-tr.csv
run "c13d <internal> a3sp-tr.csv 4 0.0001"
run "c13e <internal> a4sp-tr.csv 3 0.0001"
run "c13f $S/c12-nn3sp25-e3-lr0.0001.nnue a3sp-tr.csv 3 0.00005"
date
