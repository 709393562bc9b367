# Does 02b10d4 + EvalFile=S512 search exactly like dc383a6 with S512 built in? Same nodes at fixed depth.
run() { # $1 binary, $2 extra setoption
  { echo uci; [ -n "$2" ] && echo "$2"; echo "setoption name Threads value 1"; echo isready
    for f in "startpos" "fen r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6" "fen 5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1" "fen 8/5pk1/6p1/8/3R4/6P1/5PK1/2r5 w - - 0 1"; do
      echo ucinewgame; echo "position $f"; echo "go depth 14"; sleep 8; done; sleep 2; echo quit; } | $1 | awk '/nodes/{for(i=1;i<NF;i++) if($i=="nodes") n=$(i+1)} /^bestmove/{printf "%s %s  ", $2, n} END{print ""}'
}
run /work/w512/target/release/bastion ""
run /work/data/s46/bastion-512-pgo "setoption name EvalFile value /work/data/s46/S512.nnue"
