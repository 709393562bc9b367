//! Extra Zobrist keys for the series state (moves left, en-passant squares),
//! mixed into the board key so that transposition sets tell apart the same
//! board with different numbers of moves still to play.

use bastion_core::rng::splitmix64;
use bastion_core::Bitboard;

/// Key for `left` moves still to play in the series.
#[inline]
pub fn moves_left_key(left: u32) -> u64 {
    splitmix64(0x5E21_E500_0000_0000 ^ left as u64)
}

/// Key of the series state: moves left, first-move flag and en-passant squares.
#[inline]
pub fn series_key(left: u32, first: bool, ep: Bitboard) -> u64 {
    let mut k = moves_left_key(left);
    if ep.nonempty() {
        k ^= splitmix64(ep.0 ^ if first { 0x1234_5678 } else { 0x8765_4321 });
    }
    k
}
