# Session 33, information only (no network is built in on it): k3 against n2 directly, both on
# bastion-s33 (the king-bucket build reads both) through EvalFile, 10+0.1, openings 91-130 with
# both colours, two games at a time, by h2h32.sh. q4 beat q3 head to head (session 32) while losing
# to them against Stockfish; does k3, which lost 6 % to n2 against Stockfish, also win head to head?
[ -f /work/data/s31/open91-130.epd ] || sed -n 91,130p /work/shared/data/openings.epd > /work/data/s31/open91-130.epd
B=../bastion-s33 NEW=k3=/work/data/s31/k3.nnue OLD=n2=/work/data/s29/n2.nnue OPEN=open91-130.epd TAG=h2h33 \
  bash /work/main/notes/logs/s32/h2h32.sh
