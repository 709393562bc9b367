//! Where the side to move would give check: computed once per position and
//! shared by all of its moves (Stockfish's "check info"). Playing a move with it
//! finds a direct check with one table read instead of generating the moved
//! piece's attacks, and looks for a discovered check only when the moved piece
//! really shielded the enemy king.

use crate::bitboard::Bitboard;
use crate::piece::Role;

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
    /// Check info from its parts (see [`crate::Position::check_info`]).
    #[inline]
    pub(crate) fn new(squares: [Bitboard; 6], discoverers: Bitboard) -> CheckInfo {
        CheckInfo { squares, discoverers }
    }

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
