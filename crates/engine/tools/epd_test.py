#!/usr/bin/env python3
"""Quick EPD suite runner (stop-gap until `bastion epd`): counts positions where the
engine's bestmove is one of the `bm` moves (or avoids every `am` move).

usage: epd_test.py ENGINE EPD [--ms 1000] [--threads 1] [--hash 64] [--limit N] [--opt Name=Value ...]
Needs python-chess (`pip install chess`).
"""
import argparse, sys, time
import chess, chess.engine

ap = argparse.ArgumentParser()
ap.add_argument("engine"); ap.add_argument("epd")
ap.add_argument("--ms", type=int, default=1000)
ap.add_argument("--threads", type=int, default=1)
ap.add_argument("--hash", type=int, default=64)
ap.add_argument("--limit", type=int, default=0)
ap.add_argument("--opt", action="append", default=[])
ap.add_argument("-v", action="store_true")
a = ap.parse_args()
eng = chess.engine.SimpleEngine.popen_uci(a.engine.split())
opts = {"Hash": a.hash, "Threads": a.threads}
for o in a.opt:
    k, v = o.split("=", 1)
    opts[k] = v
for k, v in opts.items():
    if k in eng.options:
        eng.configure({k: v})
    else:  # hidden options (search feature switches) are not advertised
        eng.protocol.send_line(f"setoption name {k} value {v}")
lines = [l for l in open(a.epd) if l.strip()]
if a.limit:
    lines = lines[: a.limit]
solved = 0; failed = []
t0 = time.time()
for i, line in enumerate(lines):
    board, ops = chess.Board.from_epd(line)
    res = eng.play(board, chess.engine.Limit(time=a.ms / 1000), game=object())
    ok = True
    if "bm" in ops:
        ok = res.move in ops["bm"]
    if "am" in ops:
        ok = ok and res.move not in ops["am"]
    solved += ok
    if not ok:
        failed.append(ops.get("id", str(i + 1)))
    if a.v:
        print(f"{i+1:4} {'ok ' if ok else 'BAD'} {ops.get('id','')} {board.san(res.move)}", flush=True)
eng.quit()
print(f"solved {solved}/{len(lines)} at {a.ms} ms in {time.time()-t0:.0f}s")
print("failed:", " ".join(failed))
