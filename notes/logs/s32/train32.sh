# Session 32: q4 is q3's run (n2, all31 = 25.6 M lines, lr 1e-4, left-right mirroring) for 20 epochs
# instead of 10. q3's validation loss was still falling by about 0.3 % an epoch when its learning
# rate dropped at epoch 7 (train-q3.log); 20 epochs give 12 at 1e-4, 6 at 1e-5 and 2 at 1e-6.
# Run in /work/data/s31; gate with ../../s31/gate31-lib.sh's ev.
cd /work/data/s31
[ -f q4.nnue ] || ../bastion-s31 nnue train --data all31.csv --validation m30c-val.csv --out q4.nnue \
  --init ../s29/n2.nnue --epochs 20 --batch 4096 --lr 0.0001 --threads 2 --mirror-files > train-q4.log 2>&1
date
echo done > train32.done
