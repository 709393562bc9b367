# Session 58 (rule58b.md): the second Stockfish arm, started when the first arm's run56.sh (PID $1) ends.
# Run from the repository root.
while kill -0 "$1" 2>/dev/null; do sleep 10; done
date
DIR=/work/data/s58 TAG=sf58 B=/work/data/s58/bastion-s58-pgo RANGES="191-220 221-250 251-280 281-290" \
  BOPTS="option.AspFailHigh=true option.HistMargin=true option.QsSeeFutility=true" bash notes/logs/s56/run56.sh
date
