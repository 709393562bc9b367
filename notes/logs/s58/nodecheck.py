# Fixed-depth node counts through UCI: binary A with options v binary B with defaults.
import subprocess, sys
FENS = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"]
def nodes(cmd, opts, depth):
    p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out = []
    send = lambda s: (p.stdin.write(s + "\n"), p.stdin.flush())
    send("uci")
    for o in opts: send(f"setoption name {o} value true")
    for f in FENS:
        send("ucinewgame"); send(f"position fen {f}"); send(f"go depth {depth}")
        last = None
        for line in p.stdout:
            if line.startswith("info") and " nodes " in line: last = line.split(" nodes ")[1].split()[0]
            if line.startswith("bestmove"): out.append((last, line.split()[1])); break
    send("quit"); p.wait()
    return out
a = nodes(sys.argv[1], ["AspFailHigh", "HistMargin", "QsSeeFutility"], 12)
b = nodes(sys.argv[2], [], 12)
for x, y in zip(a, b): print(x, y, "same" if x == y else "DIFFERENT")
