//! Squares, files and ranks. A1 is 0, H1 is 7, A8 is 56, H8 is 63.

use crate::color::Color;
use std::fmt;
use std::str::FromStr;

/// A file, a to h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank, 1 to 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

/// One of the 64 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl File {
    /// All files, a first.
    pub const ALL: [File; 8] = [File(0), File(1), File(2), File(3), File(4), File(5), File(6), File(7)];
    /// The a-file.
    pub const A: File = File(0);
    /// The c-file (queenside castling king destination).
    pub const C: File = File(2);
    /// The d-file (queenside castling rook destination).
    pub const D: File = File(3);
    /// The e-file.
    pub const E: File = File(4);
    /// The f-file (kingside castling rook destination).
    pub const F: File = File(5);
    /// The g-file (kingside castling king destination).
    pub const G: File = File(6);
    /// The h-file.
    pub const H: File = File(7);

    /// The file with index 0..8; `None` outside.
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File(index))
        } else {
            None
        }
    }

    /// Index 0 (a) to 7 (h).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file's letter.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// Parses `a`..`h`.
    pub fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }

    /// The mirrored file (a ↔ h).
    #[inline]
    pub const fn flip(self) -> File {
        File(7 - self.0)
    }
}

impl Rank {
    /// All ranks, 1 first.
    pub const ALL: [Rank; 8] = [Rank(0), Rank(1), Rank(2), Rank(3), Rank(4), Rank(5), Rank(6), Rank(7)];
    /// Rank 1.
    pub const FIRST: Rank = Rank(0);
    /// Rank 8.
    pub const EIGHTH: Rank = Rank(7);

    /// The rank with index 0..8; `None` outside.
    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index))
        } else {
            None
        }
    }

    /// Index 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank's digit.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// Parses `1`..`8`.
    pub fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }

    /// The same rank seen from `color`'s side: rank 1 for White is rank 8 for Black.
    #[inline]
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
}

impl Square {
    /// a1.
    pub const A1: Square = Square(0);
    /// c1.
    pub const C1: Square = Square(2);
    /// e1.
    pub const E1: Square = Square(4);
    /// g1.
    pub const G1: Square = Square(6);
    /// h1.
    pub const H1: Square = Square(7);
    /// a8.
    pub const A8: Square = Square(56);
    /// e8.
    pub const E8: Square = Square(60);
    /// h8.
    pub const H8: Square = Square(63);

    /// The square with index 0..64; `None` outside.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index & 63`; for indices known to be in range.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        Square((index & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// Mirrored vertically (a1 ↔ a8): the square seen from the other side.
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Mirrored horizontally (a1 ↔ h1).
    #[inline]
    pub const fn flip_horizontal(self) -> Square {
        Square(self.0 ^ 7)
    }

    /// Mirrored on the a1–h8 diagonal (b1 ↔ a2).
    #[inline]
    pub const fn flip_diagonal(self) -> Square {
        Square(((self.0 >> 3) | (self.0 << 3)) & 63)
    }

    /// The square seen from `color`'s side (unchanged for White).
    #[inline]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square `delta` steps away in index space, if it stays on the board.
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let i = self.0 as i16 + delta as i16;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Chebyshev (king-move) distance.
    pub fn distance(self, other: Square) -> u32 {
        let df = (self.file().index() as i32 - other.file().index() as i32).unsigned_abs();
        let dr = (self.rank().index() as i32 - other.rank().index() as i32).unsigned_abs();
        df.max(dr)
    }

    /// True for the light squares (h1, a2, …).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 / 8 + self.0 % 8) % 2 == 1
    }

    /// Iterates over all 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text was not a square name such as `e4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square name {0:?}")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next().and_then(File::from_char), chars.next().and_then(Rank::from_char), chars.next()) {
            (Some(f), Some(r), None) => Ok(Square::from_coords(f, r)),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}
