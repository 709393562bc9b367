# Session 47: the four arms of rule47.md, one after another, in /work/data/s46.
S=$(dirname $(readlink -f $0))
for r in 61-90 211-240 241-270 271-300; do
  FROM=${r%-*} TO=${r#*-} bash $S/sf47.sh
done
date > /work/data/s46/run47.done
