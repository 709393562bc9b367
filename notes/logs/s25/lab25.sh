# Session 25: new self-play by c11 (sp25.csv, written by gen in /work/data), then depth-7 labels
# of moved-on positions, then held-out sets. Run in /work/data/s25.
cd /work/data/s25
B=../bastion-s25
cut -d, -f1-3 ../sp25.csv > s25src.csv
$B nnue label --data s25src.csv --out s25-d7r6.csv --depth 7 --random-plies 6 --seed 2501 --threads 2 > lab25a.log 2>&1
# game positions of held-out games, labelled as is at depth 7 (a held-out "game" set)
awk -F, '$3 % 10 == 0 && NR % 2 == 0' s25src.csv > g25src.csv
$B nnue label --data g25src.csv --out g25-val.csv --depth 7 --threads 2 > lab25g.log 2>&1
awk -F, 'NF>=4 && $3 % 10 == 0' s25-d7r6.csv > m25-val.csv
awk -F, 'NF>=4 && $3 % 10 != 0' s25-d7r6.csv > n25-tr.csv
# the self-play lines with their 2,000-node game scores, held-out games removed
awk -F, 'NF>=4 && $3 % 10 != 0' ../sp25.csv > sp25-tr.csv
wc -l s25-d7r6.csv g25-val.csv m25-val.csv n25-tr.csv sp25-tr.csv
date
echo done > lab25.done
