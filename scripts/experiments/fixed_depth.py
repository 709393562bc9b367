#!/usr/bin/env python3
"""Search every position of an EPD file to a fixed depth under two or more option sets and
print one JSON line per position and configuration: best move, score, nodes, time.

Fixed depth, one thread and a cleared table before each position make the node counts and moves
exact on a loaded machine (only the times vary). Used for the enhanced transposition cutoff
(Vučković, thesis, §4.6.5) and Adaptive Depth Control (§6.3) rows of docs/experiments.md.

  scripts/experiments/fixed_depth.py --engine "target/debug/bastion uci" --epd FILE \
      --depth 5 --depth 9 --config base: --config etc:EnhancedTTCutoff=true > rows.jsonl

A configuration is NAME:OPT=VAL,OPT=VAL (empty after the colon: the defaults).
"""
import argparse
import json
import shlex
import sys
import time

import chess
import chess.engine


def parse_config(text):
    name, _, opts = text.partition(":")
    options = {}
    for item in filter(None, opts.split(",")):
        key, _, value = item.partition("=")
        options[key] = value
    return name, options


def load_epd(path, limit, skip):
    """(id, board, bm) per line; bm is kept as text, so `bm #6` (mate suites) is read too."""
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split(None, 4)
            board = chess.Board(" ".join(fields[:4]) + " 0 1")
            ops = {}
            for op in (fields[4] if len(fields) > 4 else "").split(";"):
                key, _, value = op.strip().partition(" ")
                if key:
                    ops[key] = value.strip().strip('"')
            rows.append((ops.get("id", str(len(rows) + 1)), board, ops.get("bm", "")))
    rows = rows[skip:]
    return rows[:limit] if limit else rows


def score_text(score):
    if score is None:
        return None
    pov = score.relative
    return f"#{pov.mate()}" if pov.is_mate() else f"{pov.score():+d}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="engine command line")
    ap.add_argument("--epd", required=True)
    ap.add_argument("--depth", type=int, action="append", required=True)
    ap.add_argument("--config", action="append", required=True, help="NAME:OPT=VAL,...")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions")
    ap.add_argument("--skip", type=int, default=0, help="skip the first K positions")
    args = ap.parse_args()

    positions = load_epd(args.epd, args.limit, args.skip)
    for name, options in map(parse_config, args.config):
        engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
        engine.configure({"Threads": 1, "Hash": args.hash, **options})
        for depth in args.depth:
            for ident, board, bm in positions:
                engine.configure({"Clear Hash": None})
                start = time.perf_counter()
                result = engine.play(board, chess.engine.Limit(depth=depth),
                                     info=chess.engine.INFO_ALL, game=object())
                elapsed = time.perf_counter() - start
                info = result.info
                print(json.dumps({
                    "config": name, "depth": depth, "id": ident, "fen": board.fen(),
                    "bm": bm,
                    "move": board.san(result.move) if result.move else None,
                    "score": score_text(info.get("score")), "nodes": info.get("nodes"),
                    "reached": info.get("depth"), "seconds": round(elapsed, 4),
                }), flush=True)
        engine.quit()


if __name__ == "__main__":
    sys.exit(main())
