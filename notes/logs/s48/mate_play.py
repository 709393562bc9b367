import chess, chess.engine, random, sys
B=sys.argv[1]; nodes=int(sys.argv[2]); N=int(sys.argv[3]); mat=sys.argv[4]  # e.g. R, Q, BB, BN
eng=chess.engine.SimpleEngine.popen_uci(B)
random.seed(11)
P={'R':chess.ROOK,'Q':chess.QUEEN,'B':chess.BISHOP,'N':chess.KNIGHT}
res={'white':[0,0,0],'black':[0,0,0]}
for i in range(N):
    while True:
        sq=random.sample(range(64),2+len(mat))
        b=chess.Board(None); b.set_piece_at(sq[0],chess.Piece(chess.KING,chess.WHITE)); b.set_piece_at(sq[1],chess.Piece(chess.KING,chess.BLACK))
        for s,c in zip(sq[2:],mat): b.set_piece_at(s,chess.Piece(P[c],chess.WHITE))
        if mat=='BB' and chess.square_file(sq[2])%2+chess.square_rank(sq[2])%2==chess.square_file(sq[3])%2+chess.square_rank(sq[3])%2 % 2: continue
        if mat=='BB' and ((chess.square_file(sq[2])+chess.square_rank(sq[2]))%2==(chess.square_file(sq[3])+chess.square_rank(sq[3]))%2): continue
        b.turn=chess.WHITE
        if b.is_valid() and not b.is_game_over() and not any(b.is_attacked_by(chess.BLACK,s) for s in sq[2:]): break
    for name,bd in (('white',b.copy()),('black',b.mirror())):
        plies=0
        while not bd.is_game_over(claim_draw=True):
            r=eng.play(bd, chess.engine.Limit(nodes=nodes)); bd.push(r.move); plies+=1
        res[name][0]+=1; res[name][1]+= bd.is_checkmate(); res[name][2]+=plies
print(mat, nodes, {k:'%d/%d mates, %.0f plies avg'%(v[1],v[0],v[2]/v[0]) for k,v in res.items()})
eng.quit()
