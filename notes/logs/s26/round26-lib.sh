# Session 26: one depth-7 moved-on round from a self-play file, shared by lab26.sh and session 27's
# data27.sh (sourced). `moved_on_round N SEED LOG`, run in /work/data/sN with ../spN.csv in place:
# every position moved on by 1-8 random plies (SEED) and labelled by $B at depth 7, then split by
# game id (id % 10 == 0 held out) into mN-val, nN-tr and the self-play lines spN-tr.
moved_on_round() {
  local n=$1
  cut -d, -f1-3 ../sp$n.csv > s${n}src.csv
  $B nnue label --data s${n}src.csv --out s$n-d7r8.csv --depth 7 --random-plies 8 --seed $2 --threads 2 > $3 2>&1
  awk -F, 'NF>=4 && $3 % 10 == 0' s$n-d7r8.csv > m$n-val.csv
  awk -F, 'NF>=4 && $3 % 10 != 0' s$n-d7r8.csv > n$n-tr.csv
  awk -F, 'NF>=4 && $3 % 10 != 0' ../sp$n.csv > sp$n-tr.csv
}
