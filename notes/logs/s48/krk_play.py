import chess, chess.engine, random, sys
B=sys.argv[1]; nodes=int(sys.argv[2]); N=int(sys.argv[3])
eng=chess.engine.SimpleEngine.popen_uci(B)
random.seed(7)
res={'white rook':[0,0],'black rook':[0,0]}
for i in range(N):
    while True:
        sq=random.sample(range(64),3)
        b=chess.Board(None); b.set_piece_at(sq[0],chess.Piece(chess.KING,chess.WHITE)); b.set_piece_at(sq[1],chess.Piece(chess.KING,chess.BLACK)); b.set_piece_at(sq[2],chess.Piece(chess.ROOK,chess.WHITE))
        b.turn=chess.WHITE
        if b.is_valid() and not b.is_game_over() and not b.is_attacked_by(chess.BLACK, sq[2]): break
    for name,bd in (('white rook',b.copy()),('black rook',b.mirror())):
        eng.protocol.send_line('ucinewgame') if False else None
        while not bd.is_game_over(claim_draw=True):
            r=eng.play(bd, chess.engine.Limit(nodes=nodes), game=object())
            bd.push(r.move)
        res[name][0]+=1; res[name][1]+= bd.is_checkmate()
print(nodes, res)
eng.quit()
