# Session 52 (rule52.md): the shipped engine (61e835c PGO build, V49) against Stockfish 2850 on
# openings 91–210, both colours, 240 games, through sf46.sh. Run from the repository root.
for r in 91-120 121-150 151-180 181-210; do
  DIR=/work/data/s52 TAG=sf52 B=/work/data/s52/bastion-pgo NET=V49.nnue FROM=${r%-*} TO=${r#*-} \
    bash notes/logs/s46/sf46.sh
done
