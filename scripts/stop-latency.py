#!/usr/bin/env python3
"""Measure how fast a UCI engine answers `stop` during `go infinite`.

For each round the engine gets a position, `go infinite`, a random wait, then `stop`;
the latency is the time from writing `stop` to reading `bestmove`. Rounds cycle over
the positions of an EPD file (or the start position). The engine's own output is read
on a separate thread so that reading never delays the clock.

    python3 scripts/stop-latency.py target/release/bastion uci --threads 1 --rounds 200
    python3 scripts/stop-latency.py /usr/games/stockfish --threads 2 --load 2

Prints the rounds, the median, the 99th percentile and the maximum in milliseconds.
Exit status 1 when a round gets no `bestmove` within 5 s (a hang).
"""

import argparse
import queue
import random
import statistics
import subprocess
import sys
import threading
import time


def reader(stream, lines):
    for line in stream:
        lines.put((time.perf_counter(), line.strip()))
    lines.put((time.perf_counter(), None))


def wait_for(lines, prefix, timeout):
    deadline = time.perf_counter() + timeout
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        try:
            stamp, line = lines.get(timeout=left)
        except queue.Empty:
            return None
        if line is None:
            return None
        if line.startswith(prefix):
            return stamp


def load_fens(path):
    if not path:
        return ["startpos"]
    fens = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            fields = raw.split()
            if len(fields) >= 4:
                fens.append("fen " + " ".join(fields[:4]) + " 0 1")
    return fens or ["startpos"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine", nargs="+", help="engine command line")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--epd", help="positions to cycle over (default: start position)")
    ap.add_argument("--min-wait", type=float, default=0.05, help="seconds before stop (least)")
    ap.add_argument("--max-wait", type=float, default=0.5, help="seconds before stop (most)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--load", type=int, default=0, help="busy processes to run beside the engine")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    # Busy loops beside the engine make "a loaded machine" reproducible.
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)
    ]
    fens = load_fens(args.epd)
    proc = subprocess.Popen(
        args.engine,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    lines = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, lines), daemon=True).start()

    def send(cmd):
        proc.stdin.write(cmd + "\n")
        proc.stdin.flush()

    send("uci")
    if wait_for(lines, "uciok", 10) is None:
        sys.exit("engine did not answer uci")
    send(f"setoption name Threads value {args.threads}")
    send(f"setoption name Hash value {args.hash}")
    send("isready")
    if wait_for(lines, "readyok", 30) is None:
        sys.exit("engine did not answer isready")

    latencies = []
    hangs = 0
    for i in range(args.rounds):
        send("position " + fens[i % len(fens)])
        send("go infinite")
        time.sleep(rng.uniform(args.min_wait, args.max_wait))
        sent = time.perf_counter()
        send("stop")
        got = wait_for(lines, "bestmove", 5)
        if got is None:
            hangs += 1
            print(f"round {i}: no bestmove within 5 s", file=sys.stderr)
            break
        latencies.append((got - sent) * 1000.0)
        send("isready")
        wait_for(lines, "readyok", 10)

    send("quit")
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()

    for burner in burners:
        burner.kill()

    if latencies:
        ordered = sorted(latencies)
        p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
        print(
            f"threads {args.threads}, load {args.load}: {len(latencies)} rounds, "
            f"median {statistics.median(ordered):.2f} ms, p99 {p99:.2f} ms, "
            f"max {ordered[-1]:.2f} ms, hangs {hangs}"
        )
    sys.exit(1 if hangs else 0)


if __name__ == "__main__":
    main()
