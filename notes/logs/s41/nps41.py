"""Session 41: nps of networks given as EvalFile (`-` for the built-in one) through their binaries,
interleaved, on bench-like middlegame and ending positions (`go nodes N`, Hash 64, 1 thread).
Usage: nps41.py ROUNDS BIN:NET [BIN:NET ...]"""
import subprocess, sys
ROUNDS, ARMS = int(sys.argv[1]), [a.split(":", 1) for a in sys.argv[2:]]
FENS = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2r2rk1/pp1bqppp/2n1pn2/3p4/3P4/2PBPN2/P1Q2PPP/R1B2RK1 w - - 0 13",
    "8/5pk1/6p1/3R4/5P2/6PK/r7/8 b - - 0 45",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]
def nps(binary, net):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    w = lambda s: (p.stdin.write(s + "\n"), p.stdin.flush())
    w("uci"); w("setoption name Hash value 64")
    if net != "-":
        w(f"setoption name EvalFile value {net}")
    total_n = total_t = 0
    for fen in FENS:
        w("ucinewgame"); w("position fen " + fen); w("go nodes 1000000")
        last = None
        for line in p.stdout:
            if line.startswith("info") and " nps " in line and " time " in line:
                last = line.split()
            if line.startswith("bestmove"):
                break
        total_n += int(last[last.index("nodes") + 1]); total_t += int(last[last.index("time") + 1])
    w("quit"); p.wait()
    return total_n * 1000 // max(total_t, 1)
for r in range(ROUNDS):
    got = [nps(b, n) for b, n in ARMS]
    print(f"round {r}: " + "; ".join(f"{b}:{n} {v} nps ({v / got[0]:.3f})" for (b, n), v in zip(ARMS, got)), flush=True)
