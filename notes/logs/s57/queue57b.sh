# Session 57, rule57b: the bundle, after queue57.sh's runs.
while pgrep -f queue57.sh > /dev/null; do sleep 10; done
DIR=/work/data/s57 B=bastion-c57b TAG=bundle57b \
  OPTS="option.AspFailHigh=true option.HistMargin=true option.QsSeeFutility=true" bash /work/main/notes/logs/s53/sp53.sh
