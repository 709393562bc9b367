//! Pawn structure terms and the pawn hash table keyed by `Position::pawn_key`.

use super::layout::*;
use super::masks::*;
use super::Trace;
use bastion_core::{Color, Position, Role};

/// Pawn-only evaluation cached per pawn structure.
#[derive(Clone, Copy, Default)]
pub struct PawnEntry {
    key: u64,
    /// White-minus-black pawn-structure score.
    pub score: S,
    /// Passed pawns of each colour.
    pub passed: [u64; 2],
}

/// A small direct-mapped pawn hash table (one per search thread).
pub struct PawnCache {
    entries: Vec<PawnEntry>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache::new()
    }
}

impl PawnCache {
    /// An empty cache of 16 Ki entries.
    pub fn new() -> PawnCache {
        PawnCache { entries: vec![PawnEntry { key: 1, ..Default::default() }; 1 << 14] }
    }

    /// The entry for `pos`, computing it on a miss.
    #[inline]
    pub fn get(&mut self, pos: &Position, w: &[S; NUM_PARAMS]) -> PawnEntry {
        let key = pos.pawn_key();
        let idx = (key as usize) & (self.entries.len() - 1);
        let e = &mut self.entries[idx];
        if e.key != key {
            *e = compute(pos, w, &mut super::NoTrace);
            e.key = key;
        }
        *e
    }
}

/// Squares attacked by `c`'s `pawns`.
#[inline]
pub(crate) fn pawn_attacks(pawns: u64, c: Color) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match c {
        Color::White => ((pawns & NOT_A) << 7) | ((pawns & NOT_H) << 9),
        Color::Black => ((pawns & NOT_A) >> 9) | ((pawns & NOT_H) >> 7),
    }
}

/// Evaluates the pawn structure of both sides (white minus black).
pub fn compute<T: Trace>(pos: &Position, w: &[S; NUM_PARAMS], t: &mut T) -> PawnEntry {
    let mut e = PawnEntry::default();
    let mut acc = [S(0, 0); 2];
    for c in Color::ALL {
        let ci = c.index();
        let ours = pos.pieces(c, Role::Pawn).0;
        let theirs = pos.pieces(!c, Role::Pawn).0;
        let our_att = pawn_attacks(ours, c);
        let their_att = pawn_attacks(theirs, !c);
        let mut files = 0u32;
        let mut bb = ours;
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            let file = sq % 8;
            files |= 1 << file;
            let rel_rank = if c == Color::White { sq / 8 } else { 7 - sq / 8 };
            let mut add = |idx: usize, n: i32| {
                acc[ci] += w[idx] * n;
                t.add(idx, c, n);
            };
            if PASSED_SPAN[ci][sq] & theirs == 0 && FORWARD_FILE[ci][sq] & ours == 0 {
                e.passed[ci] |= 1 << sq;
                add(PASSED + rel_rank, 1);
            }
            if FORWARD_FILE[ci][sq] & ours != 0 {
                add(DOUBLED, 1);
            }
            let neighbours = ours & adjacent(file);
            if neighbours == 0 {
                add(ISOLATED, 1);
            } else {
                let rank_bb = 0xFFu64 << (8 * (sq / 8));
                let phalanx = neighbours & rank_bb != 0;
                let supported = our_att & (1 << sq) != 0;
                if phalanx || supported {
                    add(CONNECTED + rel_rank, 1);
                }
                // Backward: every neighbour is ahead and the stop square is controlled by an enemy pawn.
                let stop = if c == Color::White { sq + 8 } else { sq.wrapping_sub(8) };
                let behind_or_level = neighbours & !PASSED_SPAN[ci][sq] & !(ATTACK_SPAN[ci][sq]);
                if !phalanx && !supported && behind_or_level == 0 && stop < 64 && their_att & (1 << stop) != 0 {
                    add(BACKWARD, 1);
                }
            }
        }
        let islands = (files & !(files << 1)).count_ones() as i32;
        acc[ci] += w[ISLAND] * islands;
        t.add(ISLAND, c, islands);
    }
    e.score = acc[0] - acc[1];
    e
}
