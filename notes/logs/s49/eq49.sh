# Session 49: same search on two builds. Usage: bash eq49.sh BINARY NETFILE; prints the best move at
# 150,000 nodes from every 15th of openings 1-300 (20 positions).
B=$1; NET=$2
{ echo "setoption name EvalFile value $NET"; echo "setoption name Hash value 16"; 
  sed -n '1,300p' /work/shared/data/openings.epd | awk 'NR%15==0' | while read -r a b c d rest; do
    echo "ucinewgame"; echo "position fen $a $b $c $d 0 1"; echo "go nodes 150000"; done; echo "isready"; } | 
  (cat; sleep 60) | timeout 120 $B 2>&1 | grep -E "^bestmove|nodes 1[0-9]{5} " | awk '/^bestmove/{print $2}' | tr '\n' ' '
