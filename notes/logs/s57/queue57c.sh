# Session 57, rule57c: the bundle of every switch whose own run was above 0, after rule57b's run.
while pgrep -f queue57b.sh > /dev/null; do sleep 10; done
OPTS="option.CaptFutility=true option.QsBlend=true option.CutoffCnt=true"
if python3 - "$DIR/sp53-bundle57b.log" <<'PY'
import re, sys
m = re.findall(r"Games 600/600: .*Elo ([-+0-9.]+)", open(sys.argv[1]).read())
sys.exit(0 if m and float(m[-1]) > 0 else 1)
PY
then OPTS="$OPTS option.AspFailHigh=true option.HistMargin=true option.QsSeeFutility=true"; fi
echo "bundle57c: $OPTS"
DIR=$DIR B=bastion-c57b TAG=bundle57c NODES=60000 OPTS="$OPTS" bash /work/main/notes/logs/s53/sp53.sh
