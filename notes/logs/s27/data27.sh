# Session 27, last hour: more data for a later round (not used this session). c11 self-play,
# then one depth-7 moved-on round (1-8 random plies), the same recipe as lab26.sh. Run in /work/data/s27.
cd /work/data/s27
B=../bastion-s25
$B tune --generate 15000 --data ../sp27.csv --nodes 2000 --threads 2 --seed 2701 --scores > gen27.log 2>&1
date
cut -d, -f1-3 ../sp27.csv > s27src.csv
$B nnue label --data s27src.csv --out s27-d7r8.csv --depth 7 --random-plies 8 --seed 2702 --threads 2 > lab27c.log 2>&1
awk -F, 'NF>=4 && $3 % 10 == 0' s27-d7r8.csv > m27-val.csv
awk -F, 'NF>=4 && $3 % 10 != 0' s27-d7r8.csv > n27-tr.csv
awk -F, 'NF>=4 && $3 % 10 != 0' ../sp27.csv > sp27-tr.csv
wc -l ../sp27.csv s27-d7r8.csv m27-val.csv n27-tr.csv sp27-tr.csv
date
echo done > data27.done
