#!/usr/bin/env python3
"""Position sets for measuring the engine with and without bitbases (python-chess).

  bitbase_positions.py suite SYZYGY_DIR PER_MATERIAL SEED > bitbase_suite_4man.epd
      4-man positions with exactly one winning move by Syzygy WDL (at least six
      legal moves; half of them colour-flipped so Black is to move), as EPD `bm`.
  bitbase_positions.py openings COUNT SEED [MATERIALS] > positions.epd
      Random legal positions of the given endings (comma separated), cycling through
      them, with neither side in check and no capture possible at once.

The files in this directory were made with
  suite ../shared/data/syzygy 10 11            -> bitbase_suite_4man.epd
  openings 100 9 KRPKR,KBPKB,KNPKN,KRPKB,KPPKP,KQPKQ,KBPKN,KQKRP,KRKBP,KPPKN
                                               -> five_man_positions.epd
  openings 100 8                               -> endgame_openings.epd
"""
import random
import sys

import chess
import chess.syzygy

OPENING_MATERIALS = "KRPKRP,KBPKBP,KNPKNP,KPPKPP,KRPKR,KBPKB,KNPKBP,KQPKQP,KRPKNP,KBPKNP"
SUITE_MATERIALS = ["Pp", "Rp", "Rn", "Rb", "Qr", "Pn", "Pb", "Qp", "Rr", "PP"]


def suite(syzygy_dir, per, seed):
    random.seed(seed)
    tb = chess.syzygy.open_tablebase(syzygy_dir)
    for mat in SUITE_MATERIALS:
        n = 0
        while n < per:
            b = chess.Board(None)
            sq = random.sample(range(64), 4)
            pcs = [chess.Piece(chess.KING, True), chess.Piece(chess.KING, False)]
            pcs += [chess.Piece.from_symbol(c) for c in mat]
            if any(p.piece_type == chess.PAWN and chess.square_rank(s) in (0, 7) for s, p in zip(sq, pcs)):
                continue
            for s, p in zip(sq, pcs):
                b.set_piece_at(s, p)
            b.turn = chess.WHITE
            if not b.is_valid() or b.is_check() or tb.probe_wdl(b) != 2:
                continue
            moves = list(b.legal_moves)
            wins = []
            for m in moves:
                b.push(m)
                if tb.probe_wdl(b) == -2:
                    wins.append(m)
                b.pop()
            if len(wins) != 1 or len(moves) < 6:
                continue
            win = wins[0]
            if random.random() < 0.5:
                b = b.mirror()
                win = chess.Move(chess.square_mirror(win.from_square), chess.square_mirror(win.to_square), win.promotion)
            print(f'{b.epd()} bm {b.san(win)}; id "{mat}-{n}";')
            n += 1


def openings(count, seed, materials):
    random.seed(seed)
    mats = materials.split(",")
    out = []
    while len(out) < count:
        w, b_ = mats[len(out) % len(mats)][1:].split("K")
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        random.shuffle(squares)
        pieces = [(chess.KING, True), (chess.KING, False)]
        pieces += [(chess.Piece.from_symbol(c).piece_type, True) for c in w]
        pieces += [(chess.Piece.from_symbol(c).piece_type, False) for c in b_]
        for pt, col in pieces:
            while True:
                sq = squares.pop()
                if pt == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    continue
                break
            board.set_piece_at(sq, chess.Piece(pt, col))
        board.turn = random.choice([True, False])
        if not board.is_valid() or board.is_check() or board.is_game_over():
            continue
        if any(board.is_capture(mv) for mv in board.legal_moves):
            continue
        out.append(board.epd())
    print("\n".join(out))


if __name__ == "__main__":
    if sys.argv[1] == "suite":
        suite(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        openings(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else OPENING_MATERIALS)
