#!/usr/bin/env python3
"""Plays won Syzygy positions out against a defending engine and counts how many the engine
on the winning side converts (mates) within the 50-move rule.

Usage: scripts/syzygy_conversion.py --engine ENGINE --defender DEFENDER --out OUT.jsonl
           [--tables DIR] [--positions N] [--seed S] [--movetime MS] [--men 4] [--min-dtz PLIES]
           [--engine-option NAME=VALUE ...] [--defender-option NAME=VALUE ...]

The positions are drawn with python-chess from the tables in DIR (default
../shared/data/syzygy): tables of exactly --men men chosen at random, a random legal position
of the table with the side to move winning by the tables (WDL +2) and at least --min-dtz
plies (default 1) from the next capture, pawn move or mate, halfmove clock 0 (a table where
no such position turns up in 2,000 tries is dropped). The
engine plays the side to move, the defender the other side, both at --movetime milliseconds a
move; a game ends with checkmate (converted), a draw by the 50-move rule, threefold
repetition, stalemate or insufficient material, or after 400 plies. Each game is one JSON line
in OUT (fen, table, dtz, end, plies, moves, the engine's largest tbhits); a rerun with the same
OUT skips the games already there. The summary at the end counts the ends.
Needs Python 3 with python-chess (pip install chess)."""
import argparse
import json
import os
import random
import sys

import chess
import chess.engine
import chess.syzygy


def options(pairs):
    out = {}
    for p in pairs:
        name, _, value = p.partition("=")
        out[name] = value
    return out


def tables(table_dir, men):
    names = sorted(f[:-5] for f in os.listdir(table_dir) if f.endswith(".rtbw"))
    return [n for n in names if len(n) - 1 == men]


def random_won_position(probe, name, rng, min_dtz):
    white, black = name.split("v")
    pieces = [chess.Piece.from_symbol(c) for c in white] + [chess.Piece.from_symbol(c.lower()) for c in black]
    for _ in range(2000):
        board = chess.Board(None)
        squares = rng.sample(range(64), len(pieces))
        if any(p.piece_type == chess.PAWN and chess.square_rank(s) in (0, 7) for p, s in zip(pieces, squares)):
            continue
        for p, s in zip(pieces, squares):
            board.set_piece_at(s, p)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if not board.is_valid() or board.is_game_over():
            continue
        if probe.probe_wdl(board) == 2 and probe.probe_dtz(board) >= min_dtz:
            return board
    return None


def draw_positions(table_dir, men, n, seed, min_dtz):
    rng = random.Random(seed)
    names = tables(table_dir, men)
    out = []
    with chess.syzygy.open_tablebase(table_dir) as probe:
        while len(out) < n:
            if not names:
                sys.exit(f"no won position with DTZ >= {min_dtz} in the {men}-man tables of {table_dir}")
            name = rng.choice(names)
            board = random_won_position(probe, name, rng, min_dtz)
            if board is None:
                names.remove(name)
            else:
                out.append((board.fen(), name, probe.probe_dtz(board)))
    return out


def play(engine, defender, fen, movetime):
    board = chess.Board(fen)
    winner = board.turn
    limit = chess.engine.Limit(time=movetime / 1000)
    tbhits = 0
    engine_game = object()
    end = "400 plies"
    while len(board.move_stack) < 400:
        if board.is_checkmate():
            end = "mate" if board.turn != winner else "mated"
            break
        if board.is_stalemate():
            end = "stalemate"
            break
        if board.is_insufficient_material():
            end = "insufficient material"
            break
        if board.is_fifty_moves():
            end = "50 moves"
            break
        if board.is_repetition(3):
            end = "repetition"
            break
        player = engine if board.turn == winner else defender
        result = player.play(board, limit, info=chess.engine.INFO_BASIC, game=engine_game)
        if player is engine:
            tbhits = max(tbhits, result.info.get("tbhits", 0))
        board.push(result.move)
    return {"end": end, "plies": len(board.move_stack), "moves": [m.uci() for m in board.move_stack], "tbhits": tbhits}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--defender", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--tables", default="../shared/data/syzygy")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--men", type=int, default=4)
    ap.add_argument("--min-dtz", type=int, default=1)
    ap.add_argument("--engine-option", action="append", default=[])
    ap.add_argument("--defender-option", action="append", default=[])
    a = ap.parse_args()
    done = set()
    if os.path.exists(a.out):
        with open(a.out) as f:
            done = {json.loads(line)["fen"] for line in f if line.strip()}
    positions = draw_positions(a.tables, a.men, a.positions, a.seed, a.min_dtz)
    engine = chess.engine.SimpleEngine.popen_uci(a.engine)
    defender = chess.engine.SimpleEngine.popen_uci(a.defender)
    try:
        engine.configure(options(a.engine_option))
        defender.configure(options(a.defender_option))
        with open(a.out, "a") as out:
            for i, (fen, name, dtz) in enumerate(positions):
                if fen in done:
                    continue
                game = play(engine, defender, fen, a.movetime)
                row = {"fen": fen, "table": name, "dtz": dtz, **game}
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(f"{i + 1}/{len(positions)} {name} {fen} dtz {dtz}: {game['end']} in {game['plies']} plies",
                      file=sys.stderr, flush=True)
    finally:
        engine.quit()
        defender.quit()
    ends = {}
    with open(a.out) as f:
        for line in f:
            row = json.loads(line)
            ends[row["end"]] = ends.get(row["end"], 0) + 1
    total = sum(ends.values())
    print(f"{ends.get('mate', 0)}/{total} converted; " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))


if __name__ == "__main__":
    main()
