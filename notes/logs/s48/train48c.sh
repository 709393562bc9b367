# Session 48 (rule48c.md): U48 from random weights on every complete pool unit but 4501, 16 epochs
# (train48.sh with other names). Waits for the pool to stop (touch /work/data/pool/STOP first).
# Run in /work/data/s48: `bash train48c.sh`; after an interruption `RESUME=--resume bash train48c.sh`.
while pgrep -f "pool45.sh|tune --generate" > /dev/null; do sleep 20; done
NET=U48 EPOCHS=16 DATA=tr48c.csv UNITS=units48c.txt exec bash "$(dirname "$(readlink -f "$0")")/train48.sh"
