//! Repetition detection from the move list alone ("variant arrays", Vučković,
//! thesis, §6.1): walk back to the last irreversible move, merging each piece's moves
//! into chains `(piece, a, b)`. An earlier position equals the current one when
//! every piece kind's chain starts and chain ends are the same squares (a chain
//! `(p, a, a)` closes on its own; two identical pieces that swapped places close
//! together) and the same side is to move. No Zobrist keys are needed.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;

/// A move as the detector needs it: who moved where, and whether it can be undone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The piece that moved.
    pub piece: Piece,
    /// Where it came from.
    pub from: Square,
    /// Where it went.
    pub to: Square,
    /// Captures, pawn moves, castling and moves that lose castling rights can never be undone.
    pub irreversible: bool,
    /// The move left an en-passant right, so the position after it is unique.
    pub leaves_ep: bool,
}

impl PlayedMove {
    /// Describes the legal move `m` played in `pos`.
    pub fn new(pos: &Position, m: Move) -> PlayedMove {
        PlayedMove::between(pos, m, &pos.play(m))
    }

    /// Describes the legal move `m` that led from `before` to `after`, for a caller (a search)
    /// that has played it already.
    pub fn between(before: &Position, m: Move, after: &Position) -> PlayedMove {
        let piece = before.piece_at(m.from()).unwrap_or(Piece::new(before.side_to_move(), Role::King));
        let irreversible = piece.role == Role::Pawn
            || m.is_castling()
            || m.is_en_passant()
            || before.piece_at(m.to()).is_some()
            || after.castling() != before.castling();
        PlayedMove { piece, from: m.from(), to: m.to(), irreversible, leaves_ep: after.ep_square().is_some() }
    }

    /// A null move (a search's pass) in `pos`: no man moves, the other side is to move, and
    /// positions before it can still repeat, as with Zobrist keys.
    pub fn pass(pos: &Position) -> PlayedMove {
        let king = pos.king(pos.side_to_move());
        let piece = Piece::new(pos.side_to_move(), Role::King);
        PlayedMove { piece, from: king, to: king, irreversible: false, leaves_ep: false }
    }
}

/// How many earlier positions in the game equal the position after the last
/// move of `moves` (0 when it is new). `moves` runs from any starting position.
pub fn repetition_count(moves: &[PlayedMove]) -> usize {
    // Open chains per piece kind: where the moved pieces stood earlier (starts)
    // and where they stand now (ends).
    let mut chains: Vec<(Piece, Square, Square)> = Vec::new();
    let mut count = 0;
    for (back, pm) in moves.iter().rev().enumerate() {
        if pm.irreversible {
            break;
        }
        // Walking backwards: this move took a piece from `from` to `to`; a chain that
        // starts at `to` belongs to that same piece and now starts at `from`.
        match chains.iter_mut().find(|(p, start, _)| *p == pm.piece && *start == pm.to) {
            Some(chain) => chain.1 = pm.from,
            None => chains.push((pm.piece, pm.from, pm.to)),
        }
        chains.retain(|(_, start, end)| start != end);
        let plies_back = back + 1;
        let earlier_has_ep = moves.len() > plies_back && moves[moves.len() - plies_back - 1].leaves_ep;
        if plies_back % 2 == 0 && !earlier_has_ep && chains_closed(&chains) {
            count += 1;
        }
    }
    count
}

fn chains_closed(chains: &[(Piece, Square, Square)]) -> bool {
    let mut starts = [Bitboard::EMPTY; 12];
    let mut ends = [Bitboard::EMPTY; 12];
    for &(p, s, e) in chains {
        starts[p.index()].set(s);
        ends[p.index()].set(e);
    }
    starts == ends
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use proptest::prelude::*;

    fn played(game: &Game) -> Vec<PlayedMove> {
        game.positions().iter().zip(game.moves()).map(|(p, &m)| PlayedMove::new(p, m)).collect()
    }

    #[test]
    fn knight_shuffle_and_swap() {
        let mut g = Game::new(Position::startpos());
        for s in ["Nf3", "Nf6", "Ng1", "Ng8"] {
            g.make(g.position().parse_san(s).unwrap());
        }
        assert_eq!(repetition_count(&played(&g)), 1);
        // Two rooks swap places: same position reached by different pieces.
        let mut g = Game::new(Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap());
        for s in ["Rb1", "Kd8", "Rg1", "Ke8", "Rh1", "Kd8", "Ra1", "Ke8"] {
            g.make(g.position().parse_san(s).unwrap());
        }
        assert_eq!(repetition_count(&played(&g)), 1);
        assert_eq!(g.repetition_count(), 2);
    }

    #[test]
    fn a_pass_keeps_earlier_positions_in_reach() {
        // Nf3, pass, Ng1, pass: the start position with White to move again, as the keys say.
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for san in ["Nf3", "", "Ng1", ""] {
            let (pm, next) = if san.is_empty() {
                (PlayedMove::pass(&pos), pos.play_null())
            } else {
                let m = pos.parse_san(san).unwrap();
                let next = pos.play(m);
                (PlayedMove::between(&pos, m, &next), next)
            };
            moves.push(pm);
            pos = next;
        }
        assert_eq!(pos.key(), start.key());
        assert_eq!(repetition_count(&moves), 1);
        assert_eq!(repetition_count(&moves[..3]), 0);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random games that prefer reversible moves agree with the Zobrist detector.
        #[test]
        fn agrees_with_zobrist(choices in proptest::collection::vec(0usize..1000, 1..120), fen_pick in 0usize..3) {
            let fens = [
                crate::fen::STARTPOS,
                "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
                "r3k2r/8/3n4/8/8/3N4/8/R3K2R w KQkq - 0 1",
            ];
            let mut g = Game::new(Position::from_fen(fens[fen_pick]).unwrap());
            for c in choices {
                let moves = g.position().legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Mostly reversible moves (so repetitions happen), sometimes anything.
                let quiet: Vec<Move> = moves.iter().copied().filter(|&m| !PlayedMove::new(g.position(), m).irreversible).collect();
                let pool: &[Move] = if c % 10 != 0 && !quiet.is_empty() { &quiet } else { &moves };
                g.make(pool[c % pool.len()]);
                prop_assert_eq!(repetition_count(&played(&g)) + 1, g.repetition_count());
            }
        }
    }
}
