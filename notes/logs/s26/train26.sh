# Session 26: fine-tune candidates on session 25's and 26's data, gated on four held-out sets.
# Run in /work/data/s26 after lab26.sh.
cd /work/data/s26
while [ ! -f lab26.done ]; do sleep 5; done
. /work/main/notes/logs/s26/gate26-lib.sh
head -200 m26-val.csv > tiny.csv
echo "c11 $(ev '<internal>')"
echo "c12 $(ev $S/c12-nn3sp25-e3-lr0.0001.nnue)"
cat $S/nn25-tr.csv n26-tr.csv > all-mo.csv
cat all-mo.csv all-mo.csv all-mo.csv $S/sp25-tr.csv sp26-tr.csv > a3sp-tr.csv
cat n26-tr.csv n26-tr.csv n26-tr.csv sp26-tr.csv > n3sp26-tr.csv
run "c13a <internal> a3sp-tr.csv 3 0.0001"
run "c13b $S/c12-nn3sp25-e3-lr0.0001.nnue n3sp26-tr.csv 3 0.0001"
run "c13c $S/c12-nn3sp25-e3-lr0.0001.nnue n3sp26-tr.csv 3 0.00005"
date
echo done > train26.done
