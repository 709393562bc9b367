#!/bin/bash
# Session 60's network comparison (rule60.md, rule60b.md): every complete pool unit, the highest
# one's last 100,000 lines held out for validation; three candidates fine-tuned from V49 (the
# built-in network) for two epochs each; epoch 1 of a two-epoch run is exactly a one-epoch run
# (same learning rate and shuffle), so each log's epoch-1 line is the one-epoch result.
# B= the training binary (this session's build); run in /work/data/s60.
set -e
B=${B:-./bastion-s60}
units=$(ls /work/data/pool/sp-*.csv | sort)
last=$(echo "$units" | tail -1)
{ for u in $units; do [ "$u" = "$last" ] || cat "$u"; done; head -n -100000 "$last"; } > fin-tr.csv
tail -n 100000 "$last" > fin-val.csv
echo "units: $(echo $units | wc -w), validation from $last; $(wc -l < fin-tr.csv) training lines"
common="--data fin-tr.csv --validation fin-val.csv --init <internal> --lr 0.0001 --epochs 2 --threads 2 --mirror-files"
$B nnue train $common --out P60.nnue > train-P60.log
$B nnue train $common --king-buckets kings4 --out K60.nnue > train-K60.log
$B nnue train $common --king-buckets kings4 --bucket-lr 0.1 --out Kp60.nnue > train-Kp60.log
grep -H -E "starting|epoch" train-P60.log train-K60.log train-Kp60.log
