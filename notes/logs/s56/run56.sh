# Session 56 (rule56.md): the built engine (PGO build, V49 as EvalFile) against Stockfish 2850 at
# 10+0.1 on openings 251–300 and 1–50, both colours, 200 games, through sf46.sh.
# Run from the repository root.
for r in 251-280 281-300 1-30 31-50; do
  from=${r%-*} to=${r#*-}
  DIR=/work/data/s56 TAG=sf56 B=/work/data/s56/bastion-s56-pgo NET=V49.nnue FROM=$from TO=$to \
    GAMES=$(( 2 * (to - from + 1) )) bash notes/logs/s46/sf46.sh
done
