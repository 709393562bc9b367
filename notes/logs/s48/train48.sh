# Session 48 (rule48.md): T48 from random weights on pool units 4502-4523 and 4701-4704,
# held-out loss on val45.csv. Run in /work/data/s48 with the pool stopped: `bash train48.sh`.
# NET=, EPOCHS=, DATA= and UNITS= name another run (train48c.sh); RESUME=--resume continues one.
set -e
cd ${DIR:-/work/data/s48}
B=/work/data/s47/bastion-pgo-fused
NET=${NET:-T48} EPOCHS=${EPOCHS:-12} DATA=${DATA:-tr48.csv} UNITS=${UNITS:-units48.txt}
[ -f val45.csv ] || cp /work/data/s46/val45.csv .
if [ ! -f $DATA ]; then
  ls /work/data/pool/sp-45*.csv /work/data/pool/sp-47*.csv | grep -v sp-4501 > $UNITS
  cat $(cat $UNITS) > $DATA
fi
s=$(date +%s)
$B nnue train --data $DATA --validation val45.csv --out $NET.nnue --epochs $EPOCHS --batch 16384 --lr 0.001 \
  --threads 2 --mirror-files $RESUME >> train-$NET.log 2>&1
echo "$NET: $(( $(date +%s) - s )) s, $(wc -l < $DATA) positions" >> time48.txt
