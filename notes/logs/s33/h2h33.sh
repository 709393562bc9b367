# Session 33, information only (no network is built in on it): k3 against n2 directly, both on
# bastion-s33 (the king-bucket build reads both) through EvalFile, 10+0.1, openings 91-130 with
# both colours, two games at a time. q4 beat q3 head to head (session 32) while losing to them
# against Stockfish; does k3, which lost 6 % to n2 against Stockfish, also win head to head?
cd /work/data/s31
[ -f open91-130.epd ] || sed -n 91,130p /work/shared/data/openings.epd > open91-130.epd
B=../bastion-s33
$B match --engine name=k3 cmd=$B option.EvalFile=/work/data/s31/k3.nnue \
  --engine name=n2 cmd=$B option.EvalFile=/work/data/s29/n2.nnue \
  --tc 10+0.1 --games 80 --concurrency 2 --openings open91-130.epd --repeat --pgn h2h33.pgn > h2h33.log 2>&1
date
echo done > h2h33.done
