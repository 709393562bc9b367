# Session 30: candidates from session 30's two data rounds (data30.sh: n2 self-play, moved-on
# lines labelled by n2 at depth 7) together with sessions 25-28's lines (s29/mo3sp.csv).
# Each line: NAME INIT DATA EPOCHS LR. Run in /work/data/s30; gate with gate30-lib.sh's ev.
cd /work/data/s30
MO30="n30-tr.csv n30b-tr.csv"; SP30="sp30-tr.csv sp30b-tr.csv"
[ -f new3sp.csv ] || cat $MO30 $MO30 $MO30 $SP30 > new3sp.csv     # new moved-on x3 + new self-play
[ -f all3sp.csv ] || cat ../s29/mo3sp.csv new3sp.csv > all3sp.csv  # and everything of sessions 25-28
while read name init data epochs lr; do
  ../bastion-s29 nnue train --data $data.csv --validation m30b-val.csv --out $name.nnue --init $init \
    --epochs $epochs --batch 4096 --lr $lr --threads 2 > train-$name.log 2>&1
done <<LIST
p1 ../s29/n2.nnue all3sp 4 0.0001
p2 ../s25/c11.nnue all3sp 4 0.0001
p3 ../s29/n2.nnue new3sp 4 0.00005
LIST
date
echo done > train30.done
