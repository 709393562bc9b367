# Session 29: n2 built in (bastion-s29, native build), 100 more games against Stockfish 2850 at
# 10+0.1 on openings 181-230 with both colours, two games at a time. Paired against session 27's
# c11 arm on the same openings (sf2850-ab27-npc-off-100-openings181-230.pgn.gz). Run in /work/data/s29.
cd /work/data/s29
B=../bastion-s29
$B match --engine name=bastion cmd=$B --engine name=sf2850 cmd=/usr/games/stockfish option.UCI_LimitStrength=true \
  option.UCI_Elo=2850 --tc 10+0.1 --games 100 --concurrency 2 --openings open181-230.epd --repeat --pgn set29.pgn > set29.log 2>&1
date
echo done > set29.done
