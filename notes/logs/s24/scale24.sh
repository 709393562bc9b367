cd /work/data/s24
T=../tiny.csv
ev() { B=$1; shift; for v in g-val.csv m-val.csv g2-val.csv m2-val.csv g3-val.csv m3-val.csv m4-val.csv; do printf " %s %s" ${v%-val.csv} $($B nnue train --data $T --validation ../$v --out /tmp/x.nnue --init "$1" --epochs 1 --lr 1e-12 --batch 4096 2>&1 | grep 'starting network' | awk '{print $NF}'); done; echo; }
for cfg in "r5y-q.csv 24" "r5y-h.csv 16" "../r5y-tr.csv 12"; do
  set -- $cfg
  n=$(basename $1 .csv)
  for arch in 768 kb; do
    o=scratch-$arch-$n-e$2
    if [ $arch = 768 ]; then B=../bastion-s23; extra=""; else B=../bastion-kb; extra="--king-bucket-pull 0.001"; fi
    s=$(date +%s)
    $B nnue train --data $1 --validation ../m4-val.csv --out $o.nnue --epochs $2 --batch 4096 --lr 0.001 --threads 2 $extra > train-$o.log 2>&1
    echo "$o ($(( $(date +%s) - s )) s) $(ev $B $o.nnue)"
  done
done
echo done > scale24.done
