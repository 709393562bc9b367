#!/usr/bin/env python3
"""Session 36: which of Bastion's non-wins against Stockfish it had rated as won.

For each game of the PGNs (gzip or plain; Bastion's and Stockfish's scores in the move comments,
from the mover's side), find the first run of RUN consecutive Bastion moves scored >= EDGE pawns.
Stockfish's median score over the next 16 plies (turned to Bastion's side) then says whether it
agreed (>= AGREE) or saw the position as about level. Prints counts by result and, for the draws,
the piece material (without pawns and kings) where the run began.

usage: overrated.py [--run 8] [--edge 1.5] [--agree 1.0] [--json] PGN...
"""
import argparse, collections, gzip, json, re
import chess, chess.pgn

SCORE = re.compile(r"([+-]?)(M?)([\d.]+)/")


def material(board):
    sides = []
    for colour in (chess.WHITE, chess.BLACK):
        sides.append("".join(ch * len(board.pieces(t, colour)) for t, ch in
                             ((chess.QUEEN, "Q"), (chess.ROOK, "R"), (chess.BISHOP, "B"), (chess.KNIGHT, "N"))))
    return "v".join(sorted(sides, key=len, reverse=True)) or "pawns"


def games(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            yield g


def classify(g, run_len, edge, agree):
    us_white = g.headers["White"] == "bastion"
    score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g.headers["Result"]]
    score = score if us_white else 1.0 - score
    board = g.board()
    ours, theirs = [], []
    for node in g.mainline():
        m = SCORE.match(node.comment)
        mover_white = board.turn
        board.push(node.move)
        if not m:
            continue
        x = 100.0 if m.group(2) else float(m.group(3))
        x = -x if m.group(1) == "-" else x
        if mover_white == us_white:
            ours.append((x, board.ply(), material(board)))
        else:
            theirs.append((-x, board.ply()))
    run = 0
    for i, (x, ply, mat) in enumerate(ours):
        run = run + 1 if x >= edge else 0
        if run == run_len:
            x0, p0, mat0 = ours[i - run_len + 1]
            later = sorted(v for v, p in theirs if p0 <= p <= p0 + 16)
            sf = later[len(later) // 2] if later else 0.0
            return score, ("agrees" if sf >= agree else "level"), mat0
    return score, "never", None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", type=int, default=8)
    ap.add_argument("--edge", type=float, default=1.5)
    ap.add_argument("--agree", type=float, default=1.0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("pgn", nargs="+")
    a = ap.parse_args()
    counts, draws = collections.Counter(), collections.Counter()
    n = 0
    for path in a.pgn:
        for g in games(path):
            n += 1
            score, verdict, mat = classify(g, a.run, a.edge, a.agree)
            counts[(score, verdict)] += 1
            if score == 0.5 and verdict == "level":
                draws[mat] += 1
    if a.json:
        print(json.dumps({"games": n, "counts": {f"{s} {v}": c for (s, v), c in sorted(counts.items())},
                          "overrated_draws_by_material": dict(draws.most_common())}))
        return
    print(f"{n} games; a run of {a.run} Bastion moves at >= +{a.edge}; Stockfish agrees if its median >= +{a.agree}")
    for label, s in (("wins", 1.0), ("draws", 0.5), ("losses", 0.0)):
        row = {v: counts[(s, v)] for v in ("never", "agrees", "level")}
        print(f"{label:7} never rated won {row['never']:4}  rated won, Stockfish agreed {row['agrees']:4}  "
              f"rated won, Stockfish about level {row['level']:4}")
    print("draws Bastion rated won and Stockfish level, by material where the run began:")
    print("  " + ", ".join(f"{m} {c}" for m, c in draws.most_common()))


if __name__ == "__main__":
    main()
