#!/usr/bin/env python3
"""Replays match PGNs with python-chess as a second referee.

    pgn-rules-check.py GAMES.pgn [MORE.pgn ...]

Every move must be legal, and where the final position is decided by a rule python-chess
knows without a claim (checkmate, stalemate, insufficient material, fivefold repetition,
the 75-move rule), the PGN's result must be the one the rule gives. A game scored as a win
in a position where a draw could be claimed (threefold, fifty moves) is reported too,
unless its termination is a time forfeit, an adjudication or a resignation. Prints one
summary line; exits with status 1 on any disagreement.
"""
import sys

import chess
import chess.pgn


def main(paths):
    games = decided = bad = 0
    terminations = {}
    for path in paths:
        with open(path) as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                games += 1
                if game.errors:
                    bad += 1
                    print(f"{path}: game {games}: {game.errors}")
                    continue
                board = game.end().board()
                result = game.headers.get("Result")
                term = game.headers.get("Termination", "?")
                terminations[term] = terminations.get(term, 0) + 1
                outcome = board.outcome(claim_draw=False)
                if outcome is not None:
                    decided += 1
                    if outcome.result() != result:
                        bad += 1
                        print(f"{path}: game {games}: scored {result}, the rules say {outcome.result()} ({outcome.termination.name})")
                elif board.can_claim_draw() and result != "1/2-1/2" and not any(
                    w in term.lower() for w in ("time", "adjud", "resign")
                ):
                    bad += 1
                    print(f"{path}: game {games}: a claimable draw scored {result} ({term})")
    print(f"{games} games, {decided} ended by a rule python-chess decides, {bad} disagreements; terminations: {terminations}")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
