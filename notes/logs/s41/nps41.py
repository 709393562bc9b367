"""Session 41: nps of networks given as EvalFile (`-` for the built-in one) through their binaries,
interleaved, on session 39's bench-like positions (`go nodes 1000000`, Hash 64, 1 thread).
Usage: nps41.py ROUNDS BIN:NET [BIN:NET ...]"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "s39"))
from nps39 import nps
ROUNDS, ARMS = int(sys.argv[1]), [a.split(":", 1) for a in sys.argv[2:]]
for r in range(ROUNDS):
    got = [nps(b, {} if n == "-" else {"EvalFile": n}, nodes=1000000) for b, n in ARMS]
    print(f"round {r}: " + "; ".join(f"{b}:{n} {v} nps ({v / got[0]:.3f})" for (b, n), v in zip(ARMS, got)), flush=True)
