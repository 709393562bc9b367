# Session 50 (rule50.md): the shipped engine (V49, 768 units) against Stockfish 2850 at 10+0.1 on
# the four arms of S512's 360 games it has not played: openings 1-30, 31-60, 61-90, 211-240.
# Files sf50v-FROM-TO.{pgn,log} in /work/data/s50.
for r in 1-30 31-60 61-90 211-240; do
  DIR=/work/data/s50 TAG=sf50v B=/work/data/s49/bastion-h768-pgo NET=V49.nnue FROM=${r%-*} TO=${r#*-} \
    bash /work/main/notes/logs/s46/sf46.sh
done
touch /work/data/s50/run50.done
