cd /work/data/s24
B=../bastion-kb
for cfg in "3 0.00005 0.01" "3 0.00005 0.001" "4 0.0001 0.01" "4 0.0001 0.001"; do
  set -- $cfg
  o=kbp-r5g-e$1-lr$2-p$3
  $B nnue train --data ../r5g-tr.csv --validation ../all4-val.csv --out $o.nnue --init '<internal>' --epochs $1 --batch 4096 --lr $2 --threads 2 --king-bucket-pull $3 > train-$o.log 2>&1
  echo "$o $(tail -2 train-$o.log | head -1)"
done
echo done > train24b.done
