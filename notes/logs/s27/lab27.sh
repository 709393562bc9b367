# Session 27: the session-26 moved-on positions (already labelled at depth 7 by c11) labelled again
# at depth 9 by the same engine, held-out set first. Same positions, deeper labels only.
cd /work/data/s27
B=../bastion-s25
cut -d, -f1-3 ../s26/m26-val.csv > m26src.csv
cut -d, -f1-3 ../s26/n26-tr.csv > n26src.csv
$B nnue label --data m26src.csv --out m26-d9.csv --depth 9 --threads 2 > lab27m.log 2>&1
date
$B nnue label --data n26src.csv --out n26-d9.csv --depth 9 --threads 2 > lab27n.log 2>&1
wc -l m26src.csv m26-d9.csv n26src.csv n26-d9.csv
date
echo done > lab27.done
