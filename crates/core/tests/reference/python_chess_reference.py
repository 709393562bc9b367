#!/usr/bin/env python3
"""Writes reference data from python-chess for Bastion's core cross-check.

One JSON object per line and game: the start FEN, whether it is Chess960, and
for every position of the game (start included) the FEN, every legal move in
UCI with its SAN, and python-chess's game-end verdicts. Moves are random, with
a bias to reversible moves so that repetitions and long games occur.

Usage: python_chess_reference.py --games N --seed S > out.jsonl
"""
import argparse
import json
import random

import chess


def verdicts(board):
    return {
        "checkmate": board.is_checkmate(),
        "stalemate": board.is_stalemate(),
        "insufficient": board.is_insufficient_material(),
        "fifty": board.halfmove_clock >= 100,
        "threefold": board.is_repetition(3),
        "fivefold": board.is_fivefold_repetition(),
        "seventyfive": board.is_seventyfive_moves(),
        "check": board.is_check(),
    }


def record(board):
    moves = {m.uci(): board.san(m) for m in board.legal_moves}
    return {"fen": board.fen(), "moves": moves, "verdicts": verdicts(board)}


def play_game(rng, chess960):
    if chess960:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
    else:
        board = chess.Board()
    start = board.fen()
    plies = [record(board)]
    played = []
    while not board.is_game_over(claim_draw=False) and len(played) < 300:
        legal = list(board.legal_moves)
        quiet = [m for m in legal if not board.is_capture(m) and board.piece_type_at(m.from_square) != chess.PAWN]
        pool = quiet if quiet and rng.random() < 0.6 else legal
        move = rng.choice(pool)
        played.append(move.uci())
        board.push(move)
        plies.append(record(board))
    return {"start": start, "chess960": chess960, "moves": played, "positions": plies}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chess960-share", type=float, default=0.2)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for _ in range(args.games):
        print(json.dumps(play_game(rng, rng.random() < args.chess960_share)))


if __name__ == "__main__":
    main()
