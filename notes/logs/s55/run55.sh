# Session 55 (rule55.md): the built engine (PGO build of the kept code, V49 as EvalFile) against
# Stockfish 2850 at 10+0.1 on openings 151–250, both colours, 200 games, through sf46.sh.
# Run from the repository root.
for r in 151-180 181-210 211-240 241-250; do
  from=${r%-*} to=${r#*-}
  DIR=/work/data/s55 TAG=sf55 B=/work/data/s55/bastion-s55-pgo NET=V49.nnue FROM=$from TO=$to \
    GAMES=$(( 2 * (to - from + 1) )) bash notes/logs/s46/sf46.sh
done
