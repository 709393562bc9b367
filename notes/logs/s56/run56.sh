# Session 56 (rule56.md): the built engine (PGO build, V49 as EvalFile) against Stockfish 2850 at
# 10+0.1 on openings 251–300 and 1–50, both colours, 200 games, through sf46.sh.
# Run from the repository root. Later sessions set DIR, TAG, B, RANGES, NET (a file in DIR, default V49.nnue)
#   and BOPTS (passed on to sf46.sh):
#   session 58: DIR=/work/data/s58 TAG=sf58 B=/work/data/s58/bastion-s58-pgo RANGES="91-120 121-150 151-180 181-190"
#     BOPTS="option.AspFailHigh=true option.HistMargin=true option.QsSeeFutility=true" bash notes/logs/s56/run56.sh
for r in ${RANGES:-251-280 281-300 1-30 31-50}; do
  from=${r%-*} to=${r#*-}
  DIR=${DIR:-/work/data/s56} TAG=${TAG:-sf56} B=${B:-/work/data/s56/bastion-s56-pgo} NET=${NET:-V49.nnue} FROM=$from TO=$to \
    GAMES=$(( 2 * (to - from + 1) )) bash notes/logs/s46/sf46.sh
done
