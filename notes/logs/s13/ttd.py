#!/usr/bin/env python3
"""Time to depth: run `go depth D` on the bench positions with given UCI options, print total time and nodes."""
import re, subprocess, sys, time
from pathlib import Path
binary, depth, *opts = sys.argv[1:]
fens = re.findall(r'^\s*"([^"]+/[^"]+)",', (Path(__file__).resolve().parents[3] / 'crates/engine/src/bench.rs').read_text(), re.M)
p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def wait(tok):
    while True:
        l = p.stdout.readline()
        if l.startswith(tok): return l
send("uci"); wait("uciok")
send("setoption name Hash value 16")
for o in opts:
    k, v = o.split("=")
    send(f"setoption name {k} value {v}")
tot_t = tot_n = 0
for f in fens:
    send("ucinewgame"); send(f"position fen {f}"); send("isready"); wait("readyok")
    t = time.time(); send(f"go depth {depth}")
    nodes = 0
    while True:
        l = p.stdout.readline()
        m = re.search(r" nodes (\d+)", l)
        if m: nodes = int(m.group(1))
        if l.startswith("bestmove"): break
    tot_t += time.time() - t; tot_n += nodes
send("quit")
print(f"{' '.join(opts) or 'default'}: positions {len(fens)} depth {depth} time {tot_t:.2f}s nodes {tot_n} nps {tot_n/tot_t:.0f}")
