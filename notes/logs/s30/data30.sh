# Session 30: a data round from n2's self-play, as session 28's data28.sh did from c11's.
# n2 (bastion-s29, built in) plays 15,000 self-play games at 2,000 nodes, then one depth-7
# moved-on round (round26-lib.sh). Run in /work/data/s30.
# Usage: bash data30.sh N GEN_SEED LABEL_SEED  (session 30: `30 3001 3002`, then `30b 3003 3004`)
DIR=/work/data/s30 B=../bastion-s29 bash /work/main/notes/logs/s28/data28.sh "$@"
