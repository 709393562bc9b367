//! Castling rights, stored as the squares of the rooks that may still castle
//! (so standard chess and Chess960 share one representation).

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::square::Square;

/// Which wing a castling move goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (O-O).
    King = 0,
    /// Towards the a-file (O-O-O).
    Queen = 1,
}

impl CastlingSide {
    /// Both wings, kingside first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];

    /// Index 0 (kingside) or 1 (queenside).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

const NONE: u8 = 64;

/// The castling rights of both sides: the rook square for each colour and wing.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Castling {
    rooks: [[u8; 2]; 2],
}

impl Default for Castling {
    fn default() -> Self {
        Castling::NONE
    }
}

impl std::fmt::Debug for Castling {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.rook_squares()).finish()
    }
}

impl Castling {
    /// No castling rights.
    pub const NONE: Castling = Castling { rooks: [[NONE; 2]; 2] };

    /// The rook that may castle for `color` on `side`, if the right exists.
    #[inline]
    pub fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        Square::new(self.rooks[color.index()][side.index()])
    }

    /// Grants the right for `color` on `side` with the rook on `rook`.
    pub fn set(&mut self, color: Color, side: CastlingSide, rook: Square) {
        self.rooks[color.index()][side.index()] = rook.index() as u8;
    }

    /// Removes one right.
    pub fn remove(&mut self, color: Color, side: CastlingSide) {
        self.rooks[color.index()][side.index()] = NONE;
    }

    /// Removes both rights of `color`.
    pub fn remove_color(&mut self, color: Color) {
        self.rooks[color.index()] = [NONE; 2];
    }

    /// True if no right remains.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.as_u32() == u32::from_ne_bytes([NONE; 4])
    }

    /// The four rook slots as one word, for cheap comparison in make-move.
    #[inline(always)]
    pub(crate) fn as_u32(&self) -> u32 {
        u32::from_ne_bytes([self.rooks[0][0], self.rooks[0][1], self.rooks[1][0], self.rooks[1][1]])
    }

    /// True if `color` keeps any right.
    pub fn has_color(&self, color: Color) -> bool {
        self.rooks[color.index()] != [NONE; 2]
    }

    /// The squares of all rooks that may still castle.
    pub fn rook_squares(&self) -> Bitboard {
        self.rooks.iter().flatten().filter_map(|&s| Square::new(s)).collect()
    }

    /// Removes any right whose rook stands on `sq` (the rook moved or was captured).
    #[inline]
    pub fn remove_rook(&mut self, sq: Square) {
        for color in &mut self.rooks {
            for r in color.iter_mut() {
                if *r as usize == sq.index() {
                    *r = NONE;
                }
            }
        }
    }
}
