"""Session 39: nps of one binary with the hidden option HandEvalPct at 0 and at a given value,
interleaved, on bench-like middlegame and ending positions (`go nodes N`, Hash 64, 1 thread).
`nps(binary, options, nodes)` is also used by later sessions' scripts (session 41: nps41.py)."""
import subprocess, sys
FENS = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2r2rk1/pp1bqppp/2n1pn2/3p4/3P4/2PBPN2/P1Q2PPP/R1B2RK1 w - - 0 13",
    "8/5pk1/6p1/3R4/5P2/6PK/r7/8 b - - 0 45",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]
def nps(binary, options, nodes=1500000):
    """Nodes per second of `binary` with UCI `options` (name -> value) over FENS, `nodes` each."""
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    w = lambda s: (p.stdin.write(s + "\n"), p.stdin.flush())
    w("uci"); w("setoption name Hash value 64")
    for name, value in options.items():
        w(f"setoption name {name} value {value}")
    total_n = total_t = 0
    for fen in FENS:
        w("ucinewgame"); w("position fen " + fen); w(f"go nodes {nodes}")
        last = None
        for line in p.stdout:
            if line.startswith("info") and " nps " in line and " time " in line:
                last = line.split()
            if line.startswith("bestmove"):
                break
        total_n += int(last[last.index("nodes") + 1]); total_t += int(last[last.index("time") + 1])
    w("quit"); p.wait()
    return total_n * 1000 // max(total_t, 1)
if __name__ == "__main__":
    BIN, PCT, ROUNDS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 2
    for r in range(ROUNDS):
        a, b = nps(BIN, {"HandEvalPct": 0}), nps(BIN, {"HandEvalPct": PCT})
        print(f"round {r}: HandEvalPct 0: {a} nps; HandEvalPct {PCT}: {b} nps; ratio {b / a:.3f}", flush=True)
