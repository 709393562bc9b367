cd /work/data
B=./bastion-s20
date
$B nnue label --data s20a.csv --out s20a-d8.csv --depth 8 --threads 2 > lab20a.log 2>&1
date
$B nnue label --data s20b.csv --out s20b-r4.csv --depth 8 --random-plies 4 --seed 2015 --threads 2 > lab20b.log 2>&1
date
$B nnue label --data s20c.csv --out s20c-r8.csv --depth 8 --random-plies 8 --seed 2016 --threads 2 > lab20c.log 2>&1
date
echo done > lab20.done
