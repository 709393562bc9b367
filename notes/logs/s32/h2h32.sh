# Session 32, information only (no network is built in on it): q4 against q3 directly, both on
# bastion-s29 through EvalFile, 10+0.1, openings 51-90 with both colours, two games at a time.
# Is q4's loss to Stockfish (−10 % against q3 on 200 paired games) seen head to head too?
cd /work/data/s31
B=../bastion-s29
$B match --engine name=q4 cmd=$B option.EvalFile=/work/data/s31/q4.nnue \
  --engine name=q3 cmd=$B option.EvalFile=/work/data/s31/q3.nnue \
  --tc 10+0.1 --games 80 --concurrency 2 --openings open51-90.epd --repeat --pgn h2h32.pgn > h2h32.log 2>&1
date
echo done > h2h32.done
