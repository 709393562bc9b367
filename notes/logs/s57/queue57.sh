# Session 57: the four candidates of rule57.md, one after another.
for o in CaptFutility QsBlend Rule50Scale CutoffCnt; do
  DIR=/work/data/s57 B=bastion-c57 TAG=$o OPTS="option.$o=true" bash /work/main/notes/logs/s53/sp53.sh
done
