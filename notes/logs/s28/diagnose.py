"""For each culprit position (from culprits.py), ask: with 20x the game's time, does Bastion see
the trouble, and what does full-strength Stockfish think of the move Bastion played?
Bastion and Stockfish run at the same time, one thread each (2 cores).
Usage: python3 diagnose.py BASTION culprits.txt SECONDS [LIMIT]"""
import concurrent.futures
import sys

import chess
import chess.engine

bastion_cmd, path, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
limit = int(sys.argv[4]) if len(sys.argv) > 4 else 10**9
rows = [l.rstrip('\n').split(';') for l in open(path)][:limit]
bastion = chess.engine.SimpleEngine.popen_uci(bastion_cmd)
sf = chess.engine.SimpleEngine.popen_uci('/usr/games/stockfish')
sf.configure({'Hash': 64})


def cp(info, board):
    return info['score'].pov(board.turn).score(mate_score=10000)


def run_bastion(board):
    info = bastion.analyse(board, chess.engine.Limit(time=secs), game=object())
    return info['pv'][0], cp(info, board)


def run_sf(board, played):
    best = sf.analyse(board, chess.engine.Limit(time=secs), game=object())
    mine = sf.analyse(board, chess.engine.Limit(time=secs / 2), root_moves=[played], game=object())
    return best['pv'][0], cp(best, board), cp(mine, board)


print('game;played;bastion game eval;bastion long move;bastion long eval;sf move;sf best;sf played')
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    for fen, game, san, ev, _ in rows:
        board = chess.Board(fen)
        played = board.parse_san(san)
        fb = pool.submit(run_bastion, board)
        fs = pool.submit(run_sf, board, played)
        bm, bcp = fb.result()
        sm, sbest, splayed = fs.result()
        print(f'{game};{san};{ev};{board.san(bm)};{bcp / 100:.2f};{board.san(sm)};{sbest / 100:.2f};{splayed / 100:.2f}',
              flush=True)
bastion.quit()
sf.quit()
