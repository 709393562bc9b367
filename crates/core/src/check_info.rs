//! Where the side to move would give check: computed once per position and
//! shared by all of its moves (Stockfish's "check info"). Playing a move with it
//! finds a direct check with one table read instead of generating the moved
//! piece's attacks, and looks for a discovered check only when the moved piece
//! really shielded the enemy king.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::piece::Role;
use crate::position::Position;
use crate::square::Square;

/// Check squares and discovered-check candidates of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckInfo {
    /// Per role, the squares from which a piece of that role of the side to move
    /// attacks the enemy king (with the current occupancy).
    squares: [Bitboard; 6],
    /// Pieces of the side to move that stand between the enemy king and one of
    /// our sliders: moving one off that line uncovers a check.
    discoverers: Bitboard,
}

impl CheckInfo {
    /// Squares from which a piece of `role` of the side to move gives check.
    #[inline]
    pub fn check_squares(&self, role: Role) -> Bitboard {
        self.squares[role.index()]
    }

    /// Pieces of the side to move whose move may uncover a check.
    #[inline]
    pub fn discoverers(&self) -> Bitboard {
        self.discoverers
    }
}

impl Position {
    /// The check info of this position, for [`Position::play_unchecked_with`] and
    /// [`Position::make_with`] over many of its moves.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side;
        let king = self.king(!us);
        let occ = self.occupied();
        let diagonal = attacks::bishop_attacks(king, occ);
        let orthogonal = attacks::rook_attacks(king, occ);
        CheckInfo {
            squares: [
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                diagonal,
                orthogonal,
                diagonal | orthogonal,
                Bitboard::EMPTY,
            ],
            discoverers: self.blockers_for_king(!us) & self.color_bb(us),
        }
    }

    /// Checkers after a normal move `from`–`to` of a `role` piece, using the check
    /// info of the position before the move (side already switched). Exact: a
    /// piece moving along a line towards or away from the king cannot start or stop
    /// attacking it without having attacked it before, which a legal position rules out.
    #[inline(always)]
    pub(crate) fn checkers_with(&self, ci: &CheckInfo, role: Role, from: Square, to: Square) -> Bitboard {
        let mut checkers = ci.squares[role.index()] & Bitboard::from_square(to);
        if ci.discoverers.contains(from) {
            let king = self.king(self.side);
            if !attacks::aligned(king, from, to) {
                let occ = self.occupied();
                let mover = !self.side;
                checkers |= (attacks::rook_attacks(king, occ) & self.orthogonal_sliders(mover))
                    | (attacks::bishop_attacks(king, occ) & self.diagonal_sliders(mover));
            }
        }
        checkers
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    /// Playing with the check info gives the same position as without, for every
    /// move of positions full of checks, pins and discovered-check batteries.
    #[test]
    fn play_with_check_info_matches_play() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/4N3/8/4R3/2B5/8/Q3K3 w - - 0 1",
            "3k4/8/3N4/8/3Q4/8/1B1R4/4K3 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let ci = pos.check_info();
            for m in pos.legal_moves().iter().copied() {
                let mut with = pos.clone();
                with.play_unchecked_with(m, &ci);
                assert_eq!(with, pos.play(m), "{fen} {m:?}");
                let mut made = pos.clone();
                let undo = made.make_with(m, &ci);
                assert_eq!(made, with, "{fen} {m:?}");
                made.unmake(m, &undo);
                assert_eq!(made, pos, "{fen} {m:?}");
            }
        }
    }
}
