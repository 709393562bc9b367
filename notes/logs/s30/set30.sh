# Session 30: a candidate network (EvalFile on bastion-s29) against Stockfish 2850 at 10+0.1,
# openings 231-280 and then 181-230 with both colours, two games at a time: 200 games, each
# paired with n2's games on the same openings (session 29's ab29 n2 arm and set29).
# Usage: [B=BUILD] bash set30.sh NET.nnue TAG   (NET relative to /work/data/s30; B defaults to bastion-s29)
cd /work/data/s30
B=${B:-../bastion-s29}
SF="--engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2850"
for o in 231-280 181-230; do
  $B match --engine name=bastion cmd=$B option.EvalFile=/work/data/s30/$1 $SF --tc 10+0.1 --games 100 --concurrency 2 \
    --openings ../s29/open$o.epd --repeat --pgn $2-$o.pgn > $2-$o.log 2>&1
done
date
echo done > $2.done
