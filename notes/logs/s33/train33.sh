# Session 33: king buckets (notes/logs/s24/king-buckets.diff, rebased onto the output buckets,
# the narrow-network reader and --mirror-files; a mirrored example swaps the wing buckets) on the
# 25.6 M lines of all31, 5.6 times what session 24 had. Each network starts from n2 (its rows serve
# every bucket, so it starts at n2's exact output) and runs q3's recipe (all31, lr 1e-4, 10 epochs,
# --mirror-files), so q3 is the control without buckets. k1 pulls the buckets together by 1e-4 of
# their spread after each step (about 0.6 an epoch); k2 leaves them free.
# bastion-s33 is the native build with king-buckets-s33.diff applied. train31.sh runs the list
# (in /work/data/s31).
B=${B:-../bastion-s33} DONE=${DONE:-train33} LIST=${LIST:-'k1 ../s29/n2.nnue all31 10 0.0001 --mirror-files --king-bucket-pull 0.0001
k2 ../s29/n2.nnue all31 10 0.0001 --mirror-files'} bash /work/main/notes/logs/s31/train31.sh
