#!/usr/bin/env python3
"""Soak test for `bastion serve`: many clients on every route for a stretch of time.

Starts the server itself (so it can watch its memory), then runs `--clients` client
threads for `--minutes`. Each client loops over a weighted mix of requests: the board
routes, short engine searches, live analysis abandoned after a random wait, mate
problems, fortress runs closed early, Progressive moves, tablebase probes (with
`--tb-dir`), bad input of every kind, and slow clients that send their headers a byte
at a time. A watcher samples the server's RSS and the latency of `GET /api/info`.

    cargo build --release -p bastion-cli
    python3 scripts/web-soak.py target/release/bastion --clients 20 --minutes 10

Fails (exit status 1) on any answer that is not what the request deserves: a 5xx other
than 503 (busy), a 2xx to bad input, a dropped connection, or the server exiting.
"""

import argparse
import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter

GOOD_FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
]
ANY_ROUTE = ["/api/legal", "/api/move", "/api/engine/bestmove", "/api/solve", "/api/game"]
# (routes, body): each body is bad for each of its routes.
BAD_REQUESTS = [
    (ANY_ROUTE, b"{"),
    (["/api/legal", "/api/move", "/api/engine/bestmove"], b"[]"),
    (ANY_ROUTE, b'{"fen": 5, "start_fen": 5}'),
    (["/api/legal", "/api/move", "/api/engine/bestmove"], b'{"fen": "8/8/8/8 w - - 0 1", "move": "e4"}'),
    (["/api/move"], b'{"fen": "startpos", "move": "e2e5"}'),
    (["/api/engine/bestmove"], b'{"fen": "startpos", "movetime": 0}'),
    (["/api/engine/bestmove"], b'{"fen": "startpos", "threads": 999}'),
    (["/api/legal"], b'{"fen": "' + b"x" * 300000 + b'"}'),
]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.codes = Counter()
        self.failures = []
        self.info_ms = []

    def record(self, kind, code):
        with self.lock:
            self.codes[(kind, code)] += 1

    def fail(self, what):
        with self.lock:
            if len(self.failures) < 50:
                self.failures.append(what)


def request(port, method, path, body=None, timeout=60):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Host": f"127.0.0.1:{port}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=body, headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, data


def post(port, path, obj, timeout=60):
    return request(port, "POST", path, json.dumps(obj).encode(), timeout)


def abandoned(port, method, path, body, wait):
    """Starts work, reads a little, and closes the connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": f"127.0.0.1:{port}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=body, headers=headers)
    time.sleep(wait)
    conn.close()


def slow_client(port):
    """Sends a request line and headers a few bytes at a time, then gives up."""
    s = socket.create_connection(("127.0.0.1", port), timeout=15)
    try:
        for chunk in [b"GET /api/info HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", b"X-Slow: 1"]:
            s.sendall(chunk)
            time.sleep(0.5)
    except OSError:
        pass
    finally:
        s.close()


def client(port, stats, deadline, seed, has_tb):
    rng = random.Random(seed)
    while time.time() < deadline:
        fen = rng.choice(GOOD_FENS)
        roll = rng.random()
        try:
            if roll < 0.25:
                code, _ = post(port, "/api/legal", {"fen": fen})
                kind, want = "legal", {200}
            elif roll < 0.35:
                code, _ = post(port, "/api/game", {"start_fen": "startpos", "moves": ["e4", "e5", "Nf3"]})
                kind, want = "game", {200}
            elif roll < 0.42:
                pgn = '[White "A"]\n[Black "B"]\n\n1. e4 {hi} e5 (1... c5 $1) 2. Nf3 *\n'
                code, _ = post(port, "/api/pgn/import", {"pgn": pgn})
                kind, want = "pgn", {200}
            elif roll < 0.52:
                code, _ = post(port, "/api/engine/bestmove", {"fen": fen, "movetime": rng.randint(10, 200)})
                kind, want = "bestmove", {200, 503}
            elif roll < 0.60:
                path = "/api/analyse?fen=" + fen.replace(" ", "%20") + "&multipv=2"
                abandoned(port, "GET", path, None, rng.uniform(0.1, 1.5))
                kind, code, want = "analyse-abandoned", 0, {0}
            elif roll < 0.66:
                code, _ = post(port, "/api/solve", {"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "mate": 1})
                kind, want = "solve", {200, 503}
            elif roll < 0.70:
                body = json.dumps({"fen": "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "max_depth": 6}).encode()
                abandoned(port, "POST", "/api/fortress", body, rng.uniform(0.2, 2.0))
                kind, code, want = "fortress-abandoned", 0, {0}
            elif roll < 0.74:
                code, _ = post(port, "/api/progressive/game", {"start_fen": "", "rules": "italian", "moves": ["e4"]})
                kind, want = "progressive", {200}
            elif roll < 0.78 and has_tb:
                code, _ = post(port, "/api/tb/probe", {"fen": "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"})
                kind, want = "tb", {200, 404}
            elif roll < 0.93:
                routes, body = rng.choice(BAD_REQUESTS)
                code, _ = request(port, "POST", rng.choice(routes), body)
                kind, want = "bad-input", {400, 413, 415, 422}
            elif roll < 0.96:
                code, _ = request(port, "GET", "/api/legal")
                kind, want = "wrong-method", {405}
            else:
                slow_client(port)
                kind, code, want = "slow-client", 0, {0}
        except (OSError, http.client.HTTPException) as e:
            stats.fail(f"{type(e).__name__}: {e}")
            stats.record("connection-error", 0)
            continue
        stats.record(kind, code)
        if code not in want:
            stats.fail(f"{kind}: status {code}")


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def watcher(port, pid, stats, deadline, rss):
    while time.time() < deadline:
        start = time.perf_counter()
        try:
            code, _ = request(port, "GET", "/api/info", timeout=10)
            if code != 200:
                stats.fail(f"info: status {code}")
        except (OSError, http.client.HTTPException) as e:
            stats.fail(f"info: {e}")
        with stats.lock:
            stats.info_ms.append((time.perf_counter() - start) * 1000)
        kib = rss_kib(pid)
        if kib is not None:
            rss.append(kib)
        time.sleep(0.5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bastion", help="path to the bastion binary")
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--port", type=int, default=18181)
    ap.add_argument("--tb-dir", help="passed to `bastion serve --tb-dir`")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    cmd = [args.bastion, "serve", "--port", str(args.port)]
    if args.tb_dir:
        cmd += ["--tb-dir", args.tb_dir]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            request(args.port, "GET", "/api/info", timeout=2)
            break
        except OSError:
            time.sleep(0.1)
    else:
        server.kill()
        sys.exit("server did not start")

    stats = Stats()
    rss = []
    deadline = time.time() + args.minutes * 60
    threads = [
        threading.Thread(target=client, args=(args.port, stats, deadline, args.seed + i, bool(args.tb_dir)))
        for i in range(args.clients)
    ]
    threads.append(threading.Thread(target=watcher, args=(args.port, server.pid, stats, deadline, rss)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    alive = server.poll() is None
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()

    total = sum(stats.codes.values())
    print(f"{args.clients} clients, {args.minutes} min: {total} requests")
    for (kind, code), n in sorted(stats.codes.items()):
        print(f"  {kind:20} {code:3}  {n}")
    if stats.info_ms:
        ordered = sorted(stats.info_ms)
        p99 = ordered[int(0.99 * (len(ordered) - 1))]
        print(f"/api/info: {len(ordered)} samples, median {statistics.median(ordered):.1f} ms, "
              f"p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms")
    if rss:
        third = max(1, len(rss) // 3)
        print(f"server RSS: first minute max {max(rss[:120]) // 1024} MiB, "
              f"last third max {max(rss[-third:]) // 1024} MiB, overall max {max(rss) // 1024} MiB")
    print(f"server still running at the end: {alive}")
    for f in stats.failures:
        print("FAIL", f)
    sys.exit(0 if alive and not stats.failures else 1)


if __name__ == "__main__":
    main()
