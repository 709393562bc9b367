"""Compare the evaluation scale of networks: depth-1 scores of every 100th position of a data file.

Usage: python3 eval_scale.py ENGINE DATA.csv internal|NET.nnue [NET.nnue ...]
Prints the mean absolute score per network and the least-squares slope of each network's
scores on the first network's.
"""
import statistics
import sys

import chess
import chess.engine

engine_path, data = sys.argv[1], sys.argv[2]
nets = sys.argv[3:]
fens = [line.split(',')[0] for line in open(data) if line.strip()][::100]
res = {}
for net in nets:
    e = chess.engine.SimpleEngine.popen_uci(engine_path)
    if net != 'internal':
        e.configure({'EvalFile': net})
    v = [e.analyse(chess.Board(f), chess.engine.Limit(depth=1))['score'].white().score(mate_score=3000) for f in fens]
    e.quit()
    res[net] = v
    print(net, 'mean|v| %.0f' % statistics.mean(abs(x) for x in v), 'n', len(v))
first = res[nets[0]]
for net in nets[1:]:
    v = res[net]
    print(net, 'slope on first %.2f' % (sum(a * b for a, b in zip(first, v)) / sum(a * a for a in first)))
