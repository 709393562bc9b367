# Session 32, information only (no network is built in on it): q4 against q3 directly, both on
# bastion-s29 through EvalFile, 10+0.1, openings 51-90 with both colours, two games at a time.
# Is q4's loss to Stockfish (−10 % against q3 on 200 paired games) seen head to head too?
# Later sessions set B (build), NEW and OLD (name=path of each network), OPEN (openings) and TAG.
cd /work/data/s31
B=${B:-../bastion-s29}
NEW=${NEW:-q4=/work/data/s31/q4.nnue} OLD=${OLD:-q3=/work/data/s31/q3.nnue}
OPEN=${OPEN:-open51-90.epd} TAG=${TAG:-h2h32}
$B match --engine name=${NEW%%=*} cmd=$B option.EvalFile=${NEW#*=} \
  --engine name=${OLD%%=*} cmd=$B option.EvalFile=${OLD#*=} \
  --tc 10+0.1 --games 80 --concurrency 2 --openings $OPEN --repeat --pgn $TAG.pgn > $TAG.log 2>&1
date
echo done > $TAG.done
