# Session 40, step 0 of rule40.md: labels moved toward the hand-written evaluation (distill40), and
# n2 fine-tuned on them and on the unchanged labels (the control p0). Run in /work/data/s40 with
# bastion-s40 (the build of 8628759, n2 built in) and ../s39/sp39.csv present.
set -e
cd ${DIR:-/work/data/s40}
D=/work/main/target/release/examples/distill40   # cargo build --release -p bastion-engine --example distill40
[ -f sp40.csv ] || ./bastion-s40 tune --generate 12000 --nodes 2000 --threads 2 --scores --seed 4001 --data sp40.csv
awk -F, '$3%2==1{print $1","$2","$3}' ../s39/sp39.csv > val-odd.csv      # held out, scored on results only
awk -F, '$3%2==1' ../s39/sp39.csv > val-odd-scored.csv                  # the same, with search scores
awk -F, '$3%2==0' ../s39/sp39.csv > tr39-even.csv
cat tr39-even.csv sp40.csv > tr-p0.csv
for p in 30 60; do $D $p < tr-p0.csv > tr-p$p.csv; done
train() { ./bastion-s40 nnue train --data tr-$1.csv --validation val-odd.csv --out $2.nnue --init '<internal>' \
  --batch 4096 --threads 2 $3 > train-$2.log 2>&1; }
for p in p0 p30 p60; do train $p $p "--epochs 4 --lr 0.0001"; done
for p in p0 p30; do train $p ${p}b "--epochs 8 --lr 0.0005"; done
# held-out loss against the search scores (λ 1) and the trainer's mix (λ 0.75); lr 1e-12 changes nothing
head -100 tr-p0.csv > tiny.csv
for n in '<internal>' p0.nnue p30.nnue; do for l in 1 0.75; do
  echo "$n λ=$l: $(./bastion-s40 nnue train --data tiny.csv --validation val-odd-scored.csv --out /tmp/x.nnue \
    --init "$n" --epochs 1 --lr 1e-12 --lambda $l --threads 2 2>&1 | grep starting)"; done; done
