#!/usr/bin/env python3
"""Quick engine-vs-engine match (stop-gap until the arena runner): each opening
from an EPD file is played with both colours at a fixed node count (or movetime)
per move, so results do not depend on machine load when --nodes is used.

usage: match.py ENGINE_A ENGINE_B [--openings FILE] [--games N] [--nodes N | --ms N]
                [--opt-a Name=Value ...] [--opt-b Name=Value ...]
Prints W/D/L from A's view and an Elo estimate with a 95% interval.
"""
import argparse, math, sys
import chess, chess.engine

ap = argparse.ArgumentParser()
ap.add_argument("a"); ap.add_argument("b")
ap.add_argument("--openings", default="/work/shared/data/openings.epd")
ap.add_argument("--games", type=int, default=100)
ap.add_argument("--nodes", type=int, default=0)
ap.add_argument("--ms", type=int, default=0)
ap.add_argument("--opt-a", action="append", default=[])
ap.add_argument("--opt-b", action="append", default=[])
a = ap.parse_args()

def start(cmd, opts):
    e = chess.engine.SimpleEngine.popen_uci(cmd.split())
    e.configure({"Hash": 16})
    for o in opts:
        k, v = o.split("=", 1)
        if k in e.options:
            e.configure({k: v})
        else:  # hidden options (search feature switches) are not advertised
            e.protocol.send_line(f"setoption name {k} value {v}")
    return e

ea, eb = start(a.a, a.opt_a), start(a.b, a.opt_b)
limit = chess.engine.Limit(nodes=a.nodes) if a.nodes else chess.engine.Limit(time=(a.ms or 100) / 1000)
openings = [l.strip() for l in open(a.openings) if l.strip()]
w = d = l = 0
for g in range(a.games):
    fen = openings[(g // 2) % len(openings)]
    board = chess.Board(fen)
    a_white = (g % 2 == 0) == (board.turn == chess.WHITE)
    for e in (ea, eb):
        e.protocol.send_line("ucinewgame")
    while not board.is_game_over(claim_draw=True) and board.ply() < 600:
        eng = ea if (board.turn == chess.WHITE) == a_white else eb
        r = eng.play(board, limit)
        board.push(r.move)
    res = board.result(claim_draw=True)
    if res == "1/2-1/2" or res == "*":
        d += 1
    elif (res == "1-0") == a_white:
        w += 1
    else:
        l += 1
    n = w + d + l
    print(f"\rgame {n}: +{w} ={d} -{l}", end="", file=sys.stderr, flush=True)
ea.quit(); eb.quit()
n = w + d + l
score = (w + d / 2) / n
def elo(p):
    p = min(max(p, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / p - 1)
var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / n
se = math.sqrt(var / n)
print(f"\n{n} games: +{w} ={d} -{l}  score {score:.3f}  elo {elo(score):+.0f} [{elo(score-1.96*se):+.0f}, {elo(score+1.96*se):+.0f}]")
