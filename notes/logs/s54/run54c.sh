# Session 54 (rule54b.md): the built engine (PGO build, V49 as EvalFile) against Stockfish 2850 at
# 10+0.1 on openings 91–150, both colours, 120 games, through sf46.sh. Run from the repository root.
for r in 91-120 121-150; do
  DIR=/work/data/s54 TAG=sf54 B=/work/data/s54/bastion-pgo NET=V49.nnue FROM=${r%-*} TO=${r#*-} \
    bash notes/logs/s46/sf46.sh
done
