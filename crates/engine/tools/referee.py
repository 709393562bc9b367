#!/usr/bin/env python3
"""Reliability referee: plays clocked games between two UCI engines with
python-chess as the independent judge of legality, clocks and game ends.

usage: referee.py ENGINE_A ENGINE_B [--games N] [--tc 2+0.02] [--openings FILE]
                  [--opt-a Name=Value ...] [--opt-b Name=Value ...]
                  [--log FILE] [--pgn FILE] [--margin-ms 0]

Each opening is played with both colours. The referee keeps the clocks itself:
the wall time of each `go` (from sending it to reading `bestmove`) is taken off
the mover's clock and the increment added; a clock below -margin is a time
loss. A `bestmove` that is not legal in python-chess's board, an engine that
dies or stops answering, and a missing move are recorded as forfeits. Every
game is logged (one line per game) so a long run can be inspected while it
goes; the summary counts time losses, illegal moves and crashes per engine.
"""
import argparse
import math
import sys
import time

import chess
import chess.engine
import chess.pgn

ap = argparse.ArgumentParser()
ap.add_argument("a")
ap.add_argument("b")
ap.add_argument("--games", type=int, default=500)
ap.add_argument("--tc", default="2+0.02")
ap.add_argument("--openings", default="/work/shared/data/openings.epd")
ap.add_argument("--opt-a", action="append", default=[])
ap.add_argument("--opt-b", action="append", default=[])
ap.add_argument("--log", default="referee.log")
ap.add_argument("--pgn", default="referee.pgn")
ap.add_argument("--margin-ms", type=float, default=0.0)
ap.add_argument("--max-plies", type=int, default=600)
args = ap.parse_args()

base_s, inc_s = (float(x) for x in args.tc.split("+"))
names = {"a": args.a.split("/")[-1].split()[0], "b": args.b.split("/")[-1].split()[0]}
if names["a"] == names["b"]:
    names = {"a": names["a"] + "-A", "b": names["b"] + "-B"}


def start(cmd, opts):
    eng = chess.engine.SimpleEngine.popen_uci(cmd.split(), timeout=30)
    conf = {"Hash": 64} if "Hash" in eng.options else {}
    for o in opts:
        k, v = o.split("=", 1)
        conf[k] = v
    eng.configure(conf)
    return eng


commands = {"a": (args.a, args.opt_a), "b": (args.b, args.opt_b)}
engines = {side: start(*cmd) for side, cmd in commands.items()}
openings = [line.strip() for line in open(args.openings) if line.strip()]
faults = {side: {"time": 0, "illegal": 0, "crash": 0} for side in engines}
score = {"w": 0, "d": 0, "l": 0}
terminations = {}
min_left = {side: math.inf for side in engines}
short_games = {side: 0 for side in engines}
log = open(args.log, "a")
pgn_out = open(args.pgn, "a")

for g in range(args.games):
    fen = " ".join(openings[(g // 2) % len(openings)].split()[:4])
    board = chess.Board(fen)
    a_white = (g % 2 == 0) == (board.turn == chess.WHITE)
    side_of = {chess.WHITE: "a" if a_white else "b", chess.BLACK: "b" if a_white else "a"}
    clock = {chess.WHITE: base_s, chess.BLACK: base_s}
    result, reason = None, None
    game_id = object()
    low = {chess.WHITE: base_s, chess.BLACK: base_s}
    while result is None:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = outcome.result()
            reason = outcome.termination.name.lower()
            break
        if board.ply() >= args.max_plies:
            result, reason = "1/2-1/2", "max_plies"
            break
        mover = board.turn
        side = side_of[mover]
        limit = chess.engine.Limit(
            white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
            white_inc=inc_s, black_inc=inc_s)
        t0 = time.perf_counter()
        try:
            played = engines[side].play(board, limit, game=game_id)
            move = played.move
        except chess.engine.EngineTerminatedError:
            faults[side]["crash"] += 1
            engines[side] = start(*commands[side])
            move, reason = None, f"crash:{side}"
        except (chess.engine.EngineError, chess.IllegalMoveError, ValueError) as err:
            faults[side]["illegal"] += 1
            move, reason = None, f"illegal:{side}:{err}"
        except TimeoutError:
            faults[side]["crash"] += 1
            engines[side].close()
            engines[side] = start(*commands[side])
            move, reason = None, f"hang:{side}"
        spent = time.perf_counter() - t0
        clock[mover] -= spent
        low[mover] = min(low[mover], clock[mover])
        if move is None or move not in board.legal_moves:
            if move is not None:
                faults[side]["illegal"] += 1
                reason = f"illegal:{side}:{move.uci()}"
            result = "0-1" if mover == chess.WHITE else "1-0"
            break
        if clock[mover] < -args.margin_ms / 1000:
            faults[side]["time"] += 1
            result, reason = ("0-1" if mover == chess.WHITE else "1-0"), f"time:{side}"
            break
        clock[mover] += inc_s
        board.push(move)

    if result == "1/2-1/2":
        score["d"] += 1
    elif (result == "1-0") == a_white:
        score["w"] += 1
    else:
        score["l"] += 1
    terminations[reason.split(":")[0]] = terminations.get(reason.split(":")[0], 0) + 1
    game = chess.pgn.Game.from_board(board)
    game.headers["White"] = names[side_of[chess.WHITE]]
    game.headers["Black"] = names[side_of[chess.BLACK]]
    game.headers["Round"] = str(g + 1)
    game.headers["Result"] = result
    game.headers["Termination"] = reason
    game.headers["TimeControl"] = args.tc
    for colour, side in side_of.items():
        min_left[side] = min(min_left[side], low[colour])
        short_games[side] += low[colour] < 0.1
    print(game, file=pgn_out, end="\n\n", flush=True)
    print(f"game {g + 1} {names[side_of[chess.WHITE]]}-{names[side_of[chess.BLACK]]} {result} {reason} "
          f"plies {board.ply()} clocks {clock[chess.WHITE]:.3f}/{clock[chess.BLACK]:.3f} "
          f"lowest {low[chess.WHITE]:.3f}/{low[chess.BLACK]:.3f} "
          f"total +{score['w']} ={score['d']} -{score['l']}", file=log, flush=True)

for e in engines.values():
    e.quit()
n = sum(score.values())
pts = (score["w"] + score["d"] / 2) / n
print(f"{n} games, {names['a']} vs {names['b']}, {args.tc}: +{score['w']} ={score['d']} -{score['l']} ({100 * pts:.1f}%)")
print("terminations:", ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))
for side in engines:
    f = faults[side]
    print(f"{names[side]}: time losses {f['time']}, illegal moves {f['illegal']}, crashes/hangs {f['crash']}, "
          f"lowest clock after a move {min_left[side]:.3f} s, games with under 0.1 s left {short_games[side]}")
print(f"summary: {n} games, +{score['w']} ={score['d']} -{score['l']}", file=log, flush=True)
