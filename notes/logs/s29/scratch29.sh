# Session 29: networks from random weights on every unique training line of sessions 25-28
# (mosp.csv: moved-on + self-play, 10.1 M), 512 and 256 hidden units. Run in /work/data/s29.
cd /work/data/s29
../bastion-w512 nnue train --data mosp.csv --validation ../s28/m28b-val.csv --out w3.nnue --epochs 10 --batch 4096 --lr 0.001 --threads 2 > train-w3.log 2>&1
../bastion-s28 nnue train --data mosp.csv --validation ../s28/m28b-val.csv --out s3.nnue --epochs 10 --batch 4096 --lr 0.001 --threads 2 > train-s3.log 2>&1
echo done > scratch29.done
