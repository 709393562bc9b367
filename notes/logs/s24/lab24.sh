cd /work/data/s24
../bastion-s23 nnue label --data s24src.csv --out s24-d7r6.csv --depth 7 --random-plies 6 --seed 2401 --threads 2 > lab24a.log 2>&1
echo done > lab24.done
