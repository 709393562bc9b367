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
/// All four lanes empty.
const NONE_WORD: u32 = u32::from_ne_bytes([NONE; 4]);

/// The castling rights of both sides: the rook square for each colour and wing.
///
/// Stored as one word with a byte per (colour, wing) lane, always read and written
/// whole: make-move compares old and new rights, and byte stores followed by a word
/// load stalled on store forwarding.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Castling {
    rooks: u32,
}

#[inline(always)]
const fn lane(color: Color, side: CastlingSide) -> u32 {
    8 * (color.index() as u32 * 2 + side.index() as u32)
}

/// `rooks` with the `bits` wide lane at `shift` replaced by the same lane of `value`.
#[inline(always)]
const fn with_lane(rooks: u32, shift: u32, bits: u32, value: u32) -> u32 {
    let mask = ((1u64 << bits) - 1) as u32;
    (rooks & !(mask << shift)) | ((value & mask) << shift)
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
    pub const NONE: Castling = Castling { rooks: NONE_WORD };

    /// The rook that may castle for `color` on `side`, if the right exists.
    #[inline]
    pub fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        Square::new((self.rooks >> lane(color, side)) as u8)
    }

    /// Grants the right for `color` on `side` with the rook on `rook`.
    pub fn set(&mut self, color: Color, side: CastlingSide, rook: Square) {
        self.rooks = with_lane(self.rooks, lane(color, side), 8, rook.index() as u32);
    }

    /// Removes one right.
    pub fn remove(&mut self, color: Color, side: CastlingSide) {
        self.rooks = with_lane(self.rooks, lane(color, side), 8, NONE_WORD);
    }

    /// Removes both rights of `color`.
    pub fn remove_color(&mut self, color: Color) {
        self.rooks = with_lane(self.rooks, 16 * color.index() as u32, 16, NONE_WORD);
    }

    /// True if no right remains.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rooks == NONE_WORD
    }

    /// The four rook slots as one word, for cheap comparison in make-move.
    #[inline(always)]
    pub(crate) fn as_u32(&self) -> u32 {
        self.rooks
    }

    /// True if `color` keeps any right.
    pub fn has_color(&self, color: Color) -> bool {
        (self.rooks >> (16 * color.index() as u32)) & 0xffff != NONE_WORD & 0xffff
    }

    /// The squares of all rooks that may still castle.
    pub fn rook_squares(&self) -> Bitboard {
        self.rooks.to_le_bytes().into_iter().filter_map(Square::new).collect()
    }

    /// Removes any right whose rook stands on `sq` (the rook moved or was captured).
    #[inline]
    pub fn remove_rook(&mut self, sq: Square) {
        let mut rooks = self.rooks;
        for shift in [0, 8, 16, 24] {
            if (rooks >> shift) & 0xff == sq.index() as u32 {
                rooks = with_lane(rooks, shift, 8, NONE_WORD);
            }
        }
        self.rooks = rooks;
    }
}

/// How a FEN's castling field is read.
///
/// Standard chess only knows a king on e1/e8 castling with a rook on an a- or h-file
/// corner; Chess960 lets any back-rank king castle with any rook on its side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Rights that standard chess cannot have are dropped, as python-chess's
    /// `Board(fen)` does; castling is written `e1g1`.
    #[default]
    Standard,
    /// `KQkq` name the outermost rook of each wing and file letters (X-FEN and
    /// Shredder-FEN) name the rook's file; castling is written king-takes-rook.
    Chess960,
}

impl From<bool> for CastlingMode {
    /// `true` (a UCI `UCI_Chess960` option or a `--chess960` flag that is on) means
    /// [`CastlingMode::Chess960`], `false` [`CastlingMode::Standard`].
    fn from(chess960: bool) -> CastlingMode {
        if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }
}
