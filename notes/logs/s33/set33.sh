# Session 33: a king-bucket network (bastion-s33, the native build of king-buckets-s33.diff,
# with EvalFile) against Stockfish 2850 at 10+0.1 on set30.sh's openings and colours (231-280,
# then 181-230, both colours, two games at a time): 200 games, each paired with n2's game on the
# same opening and colour (s30/n2-231-280.pgn and s29/set29.pgn).
# Usage: bash set33.sh NET.nnue TAG   (NET in /work/data/s31; run anywhere, writes to /work/data/s30)
cd /work/data/s30
B=../bastion-s33
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
for o in 231-280 181-230; do
  $B match --engine name=bastion cmd=$B option.EvalFile=/work/data/s31/$1 $SF --tc 10+0.1 --games 100 --concurrency 2 \
    --openings ../s29/open$o.epd --repeat --pgn $2-$o.pgn > $2-$o.log 2>&1
done
date
echo done > $2.done
