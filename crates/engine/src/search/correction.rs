//! Static-evaluation correction history: how far the search's results have strayed from
//! the static evaluation in positions with the same pawn structure, and in positions with
//! the same material, and with the same non-pawn pieces of each side, by side to move.
//!
//! The evaluation is systematically wrong about some structures (blocked chains, far
//! passers); the search finds out, and these tables carry that knowledge to sibling
//! positions so that pruning decisions that rest on the static evaluation improve.

use bastion_core::{Color, Position};

const SIZE: usize = 16_384;
/// Entries are kept in 1/GRAIN centipawn.
const GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const MAX_CP: i32 = 64;
/// Weight of a new observation is `min(depth + 1, MAX_WEIGHT)` out of 256.
const MAX_WEIGHT: i32 = 16;

/// Entries fit in `i16` (at most `MAX_CP * GRAIN` = 16,384 in size): half the cache
/// footprint of `i32`, for the same values.
type Table = Box<[[i16; SIZE]; 2]>;

/// Correction tables of one search thread.
pub(crate) struct CorrectionHistory {
    pawns: Table,
    material: Table,
    /// `[colour of the pieces]` of `[side to move][key]`.
    non_pawn: [Table; 2],
}

fn table() -> Table {
    vec![[0; SIZE]; 2].into_boxed_slice().try_into().unwrap()
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory { pawns: table(), material: table(), non_pawn: [table(), table()] }
    }
}

/// Table index of a Zobrist key.
#[inline]
fn slot(key: u64) -> usize {
    key as usize & (SIZE - 1)
}

/// Index of the placement of `c`'s knights, bishops, rooks, queens and king.
#[inline]
fn non_pawn_index(pos: &Position, c: Color) -> usize {
    slot(pos.non_pawn_key(c))
}

fn slots(pos: &Position) -> (usize, usize, usize) {
    (pos.side_to_move().index(), slot(pos.pawn_key()), slot(pos.material_key()))
}

fn blend(entry: &mut i16, w: i32, target: i32) {
    let v = ((i32::from(*entry) * (256 - w) + target * w) / 256).clamp(-MAX_CP * GRAIN, MAX_CP * GRAIN);
    *entry = v as i16;
}

impl CorrectionHistory {
    /// The correction in centipawns to add to the static evaluation of `pos`.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        let (s, p, m) = slots(pos);
        let mut sum = i32::from(self.pawns[s][p]) + i32::from(self.material[s][m]) / 2;
        for c in Color::ALL {
            sum += i32::from(self.non_pawn[c.index()][s][non_pawn_index(pos, c)]) / 2;
        }
        sum / GRAIN
    }

    /// Records that a search of `depth` found `diff` centipawns more than the corrected
    /// static evaluation of `pos`.
    pub fn update(&mut self, pos: &Position, depth: i32, diff: i32) {
        let w = (depth + 1).min(MAX_WEIGHT);
        let target = diff.clamp(-MAX_CP, MAX_CP) * GRAIN;
        let (s, p, m) = slots(pos);
        blend(&mut self.pawns[s][p], w, target);
        blend(&mut self.material[s][m], w, target);
        for c in Color::ALL {
            blend(&mut self.non_pawn[c.index()][s][non_pawn_index(pos, c)], w, target);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_results_and_stay_bounded_and_per_structure() {
        let mut ch = CorrectionHistory::default();
        let a = Position::startpos();
        let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(ch.correction(&a), 0);
        for _ in 0..200 {
            ch.update(&a, 12, 500);
        }
        // All four tables converge on their bound (from below: the blend rounds down).
        let full = MAX_CP + MAX_CP / 2 + MAX_CP;
        assert!((full - 3..=full).contains(&ch.correction(&a)), "{}", ch.correction(&a));
        assert_eq!(ch.correction(&b), 0, "another position and side to move is untouched");
        for _ in 0..400 {
            ch.update(&a, 12, -20);
        }
        assert!((-50..=-48).contains(&ch.correction(&a)), "{}", ch.correction(&a));
    }

    #[test]
    fn non_pawn_tables_key_on_each_sides_pieces() {
        let a = Position::startpos();
        // Same pawns and material as `a`, a knight elsewhere.
        let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1").unwrap();
        let mut ch = CorrectionHistory::default();
        for _ in 0..200 {
            ch.update(&a, 12, 40);
        }
        assert!(ch.correction(&a) > ch.correction(&b), "the knight's move changes the key");
        assert!(ch.correction(&b) > 0, "the pawn and material tables still apply");
    }
}
