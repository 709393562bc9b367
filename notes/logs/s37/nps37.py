#!/usr/bin/env python3
"""Session 37: search speed of two or more binaries on the same fixed-node searches,
alternating runs (same node counts, so only the time differs).
Usage: nps37.py [--rounds R] [--nodes N] [--hash MB] BIN...
Prints one line per run and a summary: total time and the time ratio to the first binary."""
import argparse, subprocess, time, collections

FENS = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP2PPP/R2Q1RK1 w - - 0 12",
    "2r2rk1/pp1bqppp/2n1p3/3pP3/3P4/P1PB1N2/5PPP/R2Q1RK1 w - - 1 16",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/5pk1/6p1/3R4/1r5P/6P1/5PK1/8 w - - 0 45",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/2P2N1P/PPBN1PP1/R1BQR1K1 b - - 0 13",
]

def run(binary, fen, nodes, hash_mb):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"uci\nsetoption name Hash value {hash_mb}\nisready\n")
    p.stdin.flush()
    for line in p.stdout:
        if line.startswith("readyok"):
            break
    p.stdin.write(f"position fen {fen}\ngo nodes {nodes}\n")
    p.stdin.flush()
    start = time.perf_counter()
    last = ""
    for line in p.stdout:
        if line.startswith("info depth"):
            last = line
        if line.startswith("bestmove"):
            elapsed = time.perf_counter() - start
            move = line.split()[1]
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return elapsed, move, last.split()[2]

ap = argparse.ArgumentParser()
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--nodes", type=int, default=3_000_000)
ap.add_argument("--hash", type=int, default=64)
ap.add_argument("--paired", action="store_true",
                help="run all binaries at once, one per core, so they share the machine's load")
ap.add_argument("bins", nargs="+")
a = ap.parse_args()
total = collections.Counter()
for r in range(a.rounds):
    for i, fen in enumerate(FENS):
        if a.paired:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(len(a.bins)) as ex:
                results = list(ex.map(lambda b: run(b, fen, a.nodes, a.hash), a.bins))
        else:
            results = [run(b, fen, a.nodes, a.hash) for b in a.bins]
        for b, (t, mv, depth) in zip(a.bins, results):
            total[b] += t
            print(f"round {r} pos {i} {b} {t:.3f}s best {mv} depth {depth}", flush=True)
base = total[a.bins[0]]
for b in a.bins:
    print(f"{b}: {total[b]:.2f} s in all, time ratio {total[b] / base:.3f}, speed {base / total[b]:.3f}")
