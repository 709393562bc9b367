# Session 46: the whole chain after the pool stops, one job at a time (no CPU work beside games).
# S256's game count (240) is fixed here, before its match starts, to fit the session.
cd /work/data/s46
L=/work/main/notes/logs/s46
while [ -f /work/data/pool/part-4523.csv ] || pgrep -f "pool45.sh" > /dev/null; do sleep 5; done
bash $L/speed46.sh > speed46.txt 2>&1
bash $L/train46.sh 512
bash $L/sp46.sh 512 300
bash $L/train46.sh 256
bash $L/sp46.sh 256 240
date > run46.done
