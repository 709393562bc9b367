#!/usr/bin/env python3
"""Times Stockfish's `go mate N` on an EPD mate suite (bm #N, N > 0), for
comparison with `bastion solve --epd` (docs/solver.md, "Against Stockfish"). Usage:
    scripts/stockfish_mate.py SUITE.epd [SECONDS] [ENGINE]  > rows.csv
SECONDS defaults to 10; ENGINE to `stockfish` on the PATH (Debian installs it in
/usr/games). Prints one CSV row per position: line, N, found mate (or empty), seconds."""
import subprocess, sys, time, re, threading, queue

suite = sys.argv[1]
limit = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
engine = sys.argv[3] if len(sys.argv) > 3 else "stockfish"

p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

def send(s):
    p.stdin.write(s + "\n")
    p.stdin.flush()

# A reader thread feeds a queue: select() on a buffered text pipe can miss
# lines already read into Python's buffer.
lines_q = queue.Queue()
threading.Thread(target=lambda: [lines_q.put(l) for l in p.stdout], daemon=True).start()

def wait_for(prefix, deadline=None):
    lines = []
    while True:
        timeout = None if deadline is None else max(0.0, deadline - time.time())
        try:
            line = lines_q.get(timeout=timeout)
        except queue.Empty:
            return None, lines
        lines.append(line.strip())
        if line.startswith(prefix):
            return line.strip(), lines

send("uci"); wait_for("uciok")
send("setoption name Threads value 1"); send("setoption name Hash value 64")
send("isready"); wait_for("readyok")
print("line,mate,found,seconds")
for i, raw in enumerate(open(suite), 1):
    m = re.search(r"bm #(-?\d+);", raw)
    if not m or int(m.group(1)) <= 0:
        continue
    n = int(m.group(1))
    fen = " ".join(raw.split()[:4])
    send("ucinewgame"); send("position fen " + fen); send("isready"); wait_for("readyok")
    t0 = time.time()
    send(f"go mate {n}")
    best, lines = wait_for("bestmove", t0 + limit)
    if best is None:
        send("stop")
        best, more = wait_for("bestmove")
        lines += more
        elapsed = limit
    else:
        elapsed = time.time() - t0
    found = ""
    for l in lines:
        mm = re.search(r"score mate (-?\d+)", l)
        if mm:
            found = mm.group(1)
    ok = found != "" and 0 < int(found) <= n and elapsed < limit
    print(f"{i},{n},{found if ok else ''},{elapsed:.4f}", flush=True)
send("quit")
