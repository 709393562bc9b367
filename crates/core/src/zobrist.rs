//! Zobrist keys, generated at compile time from a fixed seed so keys are
//! identical across builds (hash tables and tablebase files may store them).

use crate::piece::Piece;
use crate::square::Square;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, v) = splitmix(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

static PIECE_SQUARE: [u64; 12 * 64] = keys(0x0B45_7104_0000_0001);
static CASTLING: [u64; 64] = keys(0x0B45_7104_0000_0002);
static EP_FILE: [u64; 8] = keys(0x0B45_7104_0000_0003);
static SIDE: [u64; 1] = keys(0x0B45_7104_0000_0004);

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index() * 64 + sq.index()]
}

/// Key of the `count`-th piece of this kind (0-based), for material keys.
#[inline(always)]
pub fn material(piece: Piece, count: u32) -> u64 {
    PIECE_SQUARE[piece.index() * 64 + (count as usize & 63)]
}

/// Key of a castling right whose rook stands on `rook`.
#[inline(always)]
pub fn castling(rook: Square) -> u64 {
    CASTLING[rook.index()]
}

/// Key of an en-passant square on `file` (0..8).
#[inline(always)]
pub fn en_passant(file: usize) -> u64 {
    EP_FILE[file & 7]
}

/// Key toggled when Black is to move.
#[inline(always)]
pub fn side() -> u64 {
    SIDE[0]
}
