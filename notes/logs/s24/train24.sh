cd /work/data/s24
B=../bastion-kb
for cfg in "3 0.00005" "4 0.0001" "4 0.0003"; do
  set -- $cfg
  o=kb-r5g-e$1-lr$2
  date
  $B nnue train --data ../r5g-tr.csv --validation ../all4-val.csv --out $o.nnue --init '<internal>' --epochs $1 --batch 4096 --lr $2 --threads 2 > train-$o.log 2>&1
  tail -2 train-$o.log
done
date
echo done > train24.done
