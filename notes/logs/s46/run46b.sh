# Session 46 (rule46b.md): replaces run46.sh's tail once S512's match ends.
cd /work/data/s46
L=/work/main/notes/logs/s46
while pgrep -f "sp46.sh 512" > /dev/null; do sleep 5; done
elo=$(grep -o 'Elo [-+][0-9.]*' sp46-512.log | tail -1 | awk '{print $2}')
if awk -v e="$elo" 'BEGIN { exit !(e > 20) }'; then
  FROM=1 TO=30 bash $L/sf46.sh
  FROM=31 TO=60 bash $L/sf46.sh
  bash $L/train46.sh 256
else
  bash $L/train46.sh 256
  bash $L/sp46.sh 256 240
fi
date > run46b.done
