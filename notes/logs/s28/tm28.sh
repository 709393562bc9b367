# Session 28: self-play screen of the time horizon. One binary (bastion-s28: c11 built in,
# hidden option TimeHorizon, default 20 = the shipped engine, same bench signature).
# TimeHorizon=H plays TimeHorizon=20 at 10+0.1, openings 231-300 and 1-30 of openings.epd,
# both colours, two games at a time (2 cores). Run in /work/data/s28.
# Usage: bash tm28.sh H OUT   (session 28: `tm28.sh 14 tm28`, stopped by hand at 88 games at
# 03:59 UTC with h14 at -36.5 ± 36.9 Elo, LOS 2.5 %; then `tm28.sh 28 tm28b`, 200 games).
H=$1
OUT=$2
cd /work/data/s28
B=../bastion-s28
sed -n '231,300p;1,30p' /work/main/../shared/data/openings.epd > open28.epd
$B match --engine name=h$H cmd=$B option.TimeHorizon=$H --engine name=h20 cmd=$B \
  --tc 10+0.1 --games 200 --concurrency 2 --openings open28.epd --repeat --pgn $OUT.pgn > $OUT.log 2>&1
date
echo done > $OUT.done
