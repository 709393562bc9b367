# Session 25, second moved-on round on half of the same self-play positions (even game ids, for time): 1-10 random plies, seed 2502.
cd /work/data/s25
while [ ! -f lab25.done ]; do sleep 5; done
B=../bastion-s25
awk -F, '$3 % 2 == 0' s25src.csv > s25src-even.csv
$B nnue label --data s25src-even.csv --out s25-d7r10.csv --depth 7 --random-plies 10 --seed 2502 --threads 2 > lab25b.log 2>&1
awk -F, 'NF>=4 && $3 % 10 == 0' s25-d7r10.csv > m25b-val.csv
awk -F, 'NF>=4 && $3 % 10 != 0' s25-d7r10.csv > n25b-tr.csv
wc -l s25-d7r10.csv m25b-val.csv n25b-tr.csv
date
echo done > lab25b.done
