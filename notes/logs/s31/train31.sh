# Session 31: left-right mirroring in training (`nnue train --mirror-files`). m1 is session 30's p1
# run (n2, s30/all3sp.csv, 4 epochs, lr 1e-4) with mirroring, so m1 against p1 measures the
# mirroring alone. q1-q3 add round 30c (n2 self-play `sp30c.csv`, labelled by lab30c: the moved-on
# lines x3 and the self-play lines), 25.6 M lines in all, and train longer.
# Each line: NAME INIT DATA EPOCHS LR EXTRA (LIST overrides; B overrides the build, DONE the done-file name). Run in /work/data/s31; gate with
# gate31-lib.sh's ev. (m1 was run by hand with `--validation ../s30/m30b-val.csv`; the validation
# file changes only the log, not the network.)
cd /work/data/s31
[ -f all31.csv ] || cat ../s30/all3sp.csv n30c-tr.csv n30c-tr.csv n30c-tr.csv sp30c-tr.csv > all31.csv
while read name init data epochs lr extra; do
  [ -f $name.nnue ] && continue
  ${B:-../bastion-s31} nnue train --data $data.csv --validation m30c-val.csv --out $name.nnue --init $init \
    --epochs $epochs --batch 4096 --lr $lr --threads 2 $extra > train-$name.log 2>&1
done <<LIST
${LIST:-m1 ../s29/n2.nnue ../s30/all3sp 4 0.0001 --mirror-files
q1 ../s29/n2.nnue all31 4 0.0001 --mirror-files
q2 ../s29/n2.nnue all31 6 0.0001 --mirror-files
q3 ../s29/n2.nnue all31 10 0.0001 --mirror-files}
LIST
date
echo done > ${DONE:-train31}.done
