# Session 29: fine-tune c11 (256 units) on all of sessions 25-28's training lines, in three mixes.
# mosp = moved-on + self-play (10.1 M), mo2sp = moved-on twice + self-play (13.6 M), mo3sp = three times.
# Each line: NAME DATA EPOCHS LR. Run in /work/data/s29; gate with gate29-lib.sh's ev.
cd /work/data/s29
[ -f mo3sp.csv ] || cat mo.csv mo2sp.csv > mo3sp.csv
while read name data epochs lr; do
  ../bastion-s28 nnue train --data $data.csv --validation ../s28/m28b-val.csv --out $name.nnue --init ../s25/c11.nnue \
    --epochs $epochs --batch 4096 --lr $lr --threads 2 > train-$name.log 2>&1
done <<LIST
n2 mo3sp 4 0.0001
n3 mosp 4 0.0001
n4 mo2sp 6 0.0001
LIST
echo done > train29.done
