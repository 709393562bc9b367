# Session 45: prints FEN\tUCI\tgame\tply\tbastion_to_move\tscore for every position with <=5 men
# Usage: python3 extract45.py GAMES.pgn... > pos.tsv (score: Bastion's result in the game)
import chess, chess.pgn, sys
gid=0
for fn in sys.argv[1:]:
    f=open(fn)
    while True:
        g=chess.pgn.read_game(f)
        if g is None: break
        gid+=1
        bw = g.headers["White"].startswith("bastion")
        res=g.headers["Result"]; score={"1-0":1,"0-1":0,"1/2-1/2":0.5}[res]
        if not bw: score=1-score
        b=g.board()
        for i,m in enumerate(g.mainline_moves()):
            if len(b.piece_map())<=5:
                print(f"{b.fen()}\t{m.uci()}\t{gid}\t{i}\t{int(b.turn==(chess.WHITE if bw else chess.BLACK))}\t{score}")
            b.push(m)
