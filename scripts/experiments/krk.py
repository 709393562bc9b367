#!/usr/bin/env python3
"""King and rook against king from random positions at a fixed search depth, without tablebases
(Guid & Bratko 2012, §2): does the engine mate within 50 moves, and in how many?

Both sides are played by the engine at the same fixed depth, one thread, each game starting from
a cleared table (`ucinewgame`). Positions are drawn by a seeded generator (White to move, Black
not in check, not already stalemated), so a run repeats exactly. One JSON line per game, then a
summary line.

  scripts/experiments/krk.py --engine "target/debug/bastion uci" --games 100 --depth 10 --seed 1
  scripts/experiments/krk.py ... --option EvalFile="<empty>"     # the hand-written evaluation
"""
import argparse
import json
import random
import shlex
import statistics
import subprocess

import chess
import chess.engine


def random_krk(rng):
    while True:
        wk, wr, bk = rng.sample(range(64), 3)
        board = chess.Board(None)
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(wr, chess.Piece(chess.ROOK, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        board.turn = chess.WHITE
        if not board.is_valid():  # kings adjacent, Black in check with White to move, ...
            continue
        if board.is_game_over():
            continue
        return board


def optimal_mate(probe, fen):
    """Moves to mate with best play from both sides, from the engine's DTM tables (`tb probe`)."""
    out = subprocess.run(shlex.split(probe) + [fen], capture_output=True, text=True, check=True)
    return json.loads(out.stdout).get("mate_in_moves")


def play_game(white, black, board, depth, max_moves):
    for engine in (white, black):
        engine.configure({"Clear Hash": None})
    marker = object()
    while True:
        if board.is_checkmate():
            return "mate"
        if board.is_stalemate():
            return "stalemate"
        if board.is_insufficient_material():
            return "rook lost"
        if board.can_claim_threefold_repetition():
            return "repetition"
        if board.turn == chess.WHITE and board.fullmove_number > max_moves:
            return "not mated in %d" % max_moves
        engine = white if board.turn == chess.WHITE else black
        result = engine.play(board, chess.engine.Limit(depth=depth), game=marker)
        board.push(result.move)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="engine command line")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--max-moves", type=int, default=50, help="White's moves allowed to mate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="UCI option NAME=VALUE")
    ap.add_argument("--probe", help="command printing a position's DTM as JSON, e.g. "
                    "\"bastion tb probe --dir tables --json\" (the FEN is appended): adds the "
                    "optimal number of moves to each game")
    args = ap.parse_args()

    options = {"Threads": 1, "Hash": 16}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = value
    rng = random.Random(args.seed)
    white = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    black = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    for engine in (white, black):
        engine.configure(options)

    moves_to_mate = []
    excess = []
    failures = 0
    for game in range(1, args.games + 1):
        start = random_krk(rng)
        board = start.copy()
        outcome = play_game(white, black, board, args.depth, args.max_moves)
        white_moves = (len(board.move_stack) + 1) // 2
        optimal = optimal_mate(args.probe, start.fen()) if args.probe else None
        if outcome == "mate":
            moves_to_mate.append(white_moves)
            if optimal is not None:
                excess.append(white_moves - optimal)
        else:
            failures += 1
        print(json.dumps({"game": game, "fen": start.fen(), "outcome": outcome,
                          "white_moves": white_moves, "optimal": optimal}), flush=True)
    white.quit()
    black.quit()
    print(json.dumps({
        "summary": True, "games": args.games, "depth": args.depth, "options": args.option,
        "mated": len(moves_to_mate), "failures": failures,
        "mean_moves_to_mate": round(statistics.mean(moves_to_mate), 2) if moves_to_mate else None,
        "median_moves_to_mate": statistics.median(moves_to_mate) if moves_to_mate else None,
        "max_moves_to_mate": max(moves_to_mate) if moves_to_mate else None,
        "mean_moves_over_optimal": round(statistics.mean(excess), 2) if excess else None,
    }), flush=True)


if __name__ == "__main__":
    main()
