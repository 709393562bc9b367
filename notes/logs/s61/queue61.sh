# Session 61 (rule61.md): the whole plan in order. Waits for the PGO build, screens Kp60, and P60
# only if Kp60 fails; the first to pass (points ≥ 150 of 300) plays the Stockfish arm.
# Run from the repository root: bash notes/logs/s61/queue61.sh
D=/work/data/s61
while ! grep -q '^done' $D/build.log; do sleep 20; done
for c in Kp60 P60; do
  echo "$(date -u +%T) screen $c" >> $D/run61.log
  DIR=$D B=bastion-s61-pgo CAND=$c.nnue TAG=$c bash notes/logs/s61/sp61.sh >> $D/run61.log
  pts=$(grep '^Games 300/300' $D/sp61-$c.log | tail -1 | sed 's/.*(\([0-9.]*\)\/300.*/\1/')
  echo "$(date -u +%T) $c points $pts" >> $D/run61.log
  if python3 -c "import sys; sys.exit(0 if float('$pts') >= 150 else 1)"; then
    echo "$(date -u +%T) Stockfish arm $c" >> $D/run61.log
    DIR=$D TAG=sf61 B=$D/bastion-s61-pgo NET=$c.nnue RANGES="101-130 131-160 161-190 191-200" \
      bash notes/logs/s56/run56.sh
    echo "$(date -u +%T) arm done" >> $D/run61.log
    exit 0
  fi
done
echo "$(date -u +%T) no candidate passed" >> $D/run61.log
