# Session 39, information only: HandEvalPct=30 against the default at a fixed 70 ms a move (about
# what 3+0.03 gives each move), so the mix pays for its speed but no clock management is involved.
# Same binary, openings.epd with both colours. Run in /work/data/s39.
cd ${DIR:-/work/data/s39}
B=${B:-./bastion-s39h}
$B match --engine name=hand30 cmd=$B option.HandEvalPct=30 --engine name=base cmd=$B --movetime 70 \
  --games ${GAMES:-300} --concurrency 2 --openings /work/shared/data/openings.epd --repeat --pgn movetime39.pgn > movetime39.log 2>&1
date >> movetime39.log
