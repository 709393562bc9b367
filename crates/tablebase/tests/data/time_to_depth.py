#!/usr/bin/env python3
"""Nodes, tablebase hits and decided scores of searches to a fixed depth (python-chess).

  time_to_depth.py BASTION_BINARY TABLE_DIR|none DEPTH positions.epd

Searches every 5-man position of the file to DEPTH with one thread and 16 MB of hash,
with `BastionTBPath` set to TABLE_DIR (or unset for `none`), and prints the total
nodes, the engine's reported time, the tablebase hits and how many searches end
with a table or mate score.
"""
import sys

import chess
import chess.engine

binary, cfg, depth, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
fens = [line.split(" bm")[0].strip() for line in open(path) if line.strip()]
fens = [f for f in fens if len(chess.Board(f + " 0 1").piece_map()) == 5]
eng = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
opts = {"Threads": 1, "Hash": 16}
if cfg != "none":
    opts["BastionTBPath"] = cfg
eng.configure(opts)
nodes = time = hits = decided = 0
for f in fens:
    info = eng.analyse(chess.Board(f + " 0 1"), chess.engine.Limit(depth=depth), game=object())
    nodes += info.get("nodes", 0)
    time += info.get("time", 0)
    hits += info.get("tbhits", 0)
    score = info["score"].relative
    decided += score.is_mate() or abs(score.score()) >= 10000
eng.quit()
print(f"{cfg}: {len(fens)} positions to depth {depth}: nodes {nodes}, time {time:.2f} s, tbhits {hits}, "
      f"table/mate scores {decided}")
