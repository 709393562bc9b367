# Session 53, fourth batch (rule53d.md): the bundle of the switches that scored above 0 Elo alone.
# Run from the repository root once sp53-cutnode2.log has its 600 games.
D=/work/data/s53
OPTS="option.ContHist4=true option.Hindsight=true option.LmrCont2=true"
if grep "^Games 600/600" "$D/sp53-cutnode2.log" | tail -1 | grep -q "Elo +[0-9.]*[1-9]"; then
  OPTS="$OPTS option.CutNodeLmr2=true"
fi
echo "bundle: $OPTS"
DIR=$D B=bastion-c2 TAG=bundle-40k OPTS="$OPTS" bash notes/logs/s53/sp53.sh
DIR=$D B=bastion-c2 TAG=bundle-60k OPTS="$OPTS" NODES=60000 bash notes/logs/s53/sp53.sh
