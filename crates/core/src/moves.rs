//! 16-bit move encoding and a fixed-capacity move list.

use crate::piece::Role;
use crate::square::Square;
use arrayvec::ArrayVec;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the others (captures included).
    Normal = 0,
    /// A pawn reaching the last rank.
    Promotion = 1,
    /// An en-passant capture.
    EnPassant = 2,
    /// Castling, encoded as the king moving onto its own rook's square (Chess960-safe).
    Castling = 3,
}

/// A move in 16 bits: from (6), to (6), promotion piece (2), kind (2).
///
/// Castling is stored as "king takes own rook" so that one encoding serves
/// standard chess and Chess960; [`Move::king_destination`] gives the king's square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const PROMO_ROLES: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

impl Move {
    /// The null move (a1a1): no move, used for "pass" in search and as an empty slot.
    pub const NULL: Move = Move(0);

    /// A normal move from `from` to `to`.
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// A pawn move to the last rank promoting to `role` (knight to queen).
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        let p = (role as u16).saturating_sub(1) & 3;
        Move(from.index() as u16 | (to.index() as u16) << 6 | p << 12 | (MoveKind::Promotion as u16) << 14)
    }

    /// An en-passant capture landing on `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | (MoveKind::EnPassant as u16) << 14)
    }

    /// Castling: the king on `king` with the rook on `rook`.
    #[inline]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(king.index() as u16 | (rook.index() as u16) << 6 | (MoveKind::Castling as u16) << 14)
    }

    /// Rebuilds a move from its 16-bit form (as stored in hash tables).
    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// The 16-bit form.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// True for [`Move::NULL`].
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The square the moving piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as usize)
    }

    /// The target square (the castling rook's square for castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index(((self.0 >> 6) & 63) as usize)
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The piece promoted to, for promotions.
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion => Some(PROMO_ROLES[((self.0 >> 12) & 3) as usize]),
            _ => None,
        }
    }

    /// True for promotions.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        matches!(self.kind(), MoveKind::Promotion)
    }

    /// True for castling.
    #[inline]
    pub const fn is_castling(self) -> bool {
        matches!(self.kind(), MoveKind::Castling)
    }

    /// True for en-passant captures.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        matches!(self.kind(), MoveKind::EnPassant)
    }

    /// Where the king lands for castling (g- or c-file); `to()` otherwise.
    #[inline]
    pub fn king_destination(self) -> Square {
        if self.is_castling() {
            let file = if self.to() > self.from() { crate::square::File::G } else { crate::square::File::C };
            Square::from_coords(file, self.from().rank())
        } else {
            self.to()
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(r) = self.promotion_role() {
            write!(f, "{}", r.char())?;
        }
        match self.kind() {
            MoveKind::Castling => f.write_str("(castle)"),
            MoveKind::EnPassant => f.write_str("(ep)"),
            _ => Ok(()),
        }
    }
}

/// Upper bound on legal moves in any position (the record is 218).
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack, so move generation never allocates.
///
/// Backed by an `ArrayVec`: creating one costs nothing, where a zero-filled array
/// cost a 512-byte write per list, several lists per searched node.
#[derive(Clone)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList { moves: ArrayVec::new() }
    }

    /// Appends a move; silently ignores overflow beyond [`MAX_MOVES`], which legal chess never reaches.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        let _ = self.moves.try_push(m);
    }

    /// Removes all moves.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Keeps the moves for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        self.moves.retain(|m| keep(*m));
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_list_keeps_order_filters_and_caps_at_capacity() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        let moves: Vec<Move> = (0..MAX_MOVES as u16 + 40).map(|i| Move::from_raw(i + 1)).collect();
        for &m in &moves {
            list.push(m);
        }
        assert_eq!(list.len(), MAX_MOVES, "pushes past capacity are dropped");
        assert_eq!(&list[..], &moves[..MAX_MOVES]);
        list.retain(|m| m.raw() % 3 == 0);
        let kept: Vec<Move> = moves[..MAX_MOVES].iter().copied().filter(|m| m.raw() % 3 == 0).collect();
        assert_eq!(&list[..], &kept[..]);
        list.swap(0, 1);
        assert_eq!((list[0], list[1]), (kept[1], kept[0]));
        list.clear();
        assert!(list.is_empty());
        list.push(moves[7]);
        assert_eq!(&list[..], &[moves[7]]);
    }

    #[test]
    fn encoding_round_trips() {
        let e7: Square = "e7".parse().unwrap();
        let e8: Square = "e8".parse().unwrap();
        for role in Role::PROMOTIONS {
            let m = Move::promotion(e7, e8, role);
            assert_eq!(m.from(), e7);
            assert_eq!(m.to(), e8);
            assert_eq!(m.promotion_role(), Some(role));
            assert_eq!(Move::from_raw(m.raw()), m);
        }
        let c = Move::castling(Square::E1, Square::H1);
        assert!(c.is_castling());
        assert_eq!(c.king_destination(), Square::G1);
        assert_eq!(Move::castling(Square::E1, Square::A1).king_destination(), Square::C1);
        assert!(Move::NULL.is_null());
    }
}
