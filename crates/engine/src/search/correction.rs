//! Static-evaluation correction history: how far the search's results have strayed from
//! the static evaluation in positions with the same pawn structure, and in positions with
//! the same material, by side to move.
//!
//! The evaluation is systematically wrong about some structures (blocked chains, far
//! passers); the search finds out, and these tables carry that knowledge to sibling
//! positions so that pruning decisions that rest on the static evaluation improve.

use bastion_core::{Color, Position, Role};

const SIZE: usize = 16_384;
/// Entries are kept in 1/GRAIN centipawn.
const GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const MAX_CP: i32 = 64;
/// Weight of a new observation is `min(depth + 1, MAX_WEIGHT)` out of 256.
const MAX_WEIGHT: i32 = 16;

type Table = Box<[[i32; SIZE]; 2]>;

/// Correction tables of one search thread.
pub(crate) struct CorrectionHistory {
    pawns: Table,
    material: Table,
}

fn table() -> Table {
    vec![[0; SIZE]; 2].into_boxed_slice().try_into().unwrap()
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory { pawns: table(), material: table() }
    }
}

/// Index of the material configuration (piece counts of both sides) of `pos`.
fn material_index(pos: &Position) -> usize {
    let mut h = 0u64;
    for c in Color::ALL {
        for r in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            h = (h ^ pos.pieces(c, r).count() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    (h >> 50) as usize & (SIZE - 1)
}

fn slots(pos: &Position) -> (usize, usize, usize) {
    (pos.side_to_move().index(), pos.pawn_key() as usize & (SIZE - 1), material_index(pos))
}

fn blend(entry: &mut i32, w: i32, target: i32) {
    *entry = ((*entry * (256 - w) + target * w) / 256).clamp(-MAX_CP * GRAIN, MAX_CP * GRAIN);
}

impl CorrectionHistory {
    /// The correction in centipawns to add to the static evaluation of `pos`.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        let (s, p, m) = slots(pos);
        (self.pawns[s][p] + self.material[s][m] / 2) / GRAIN
    }

    /// Records that a search of `depth` found `diff` centipawns more than the corrected
    /// static evaluation of `pos`.
    pub fn update(&mut self, pos: &Position, depth: i32, diff: i32) {
        let w = (depth + 1).min(MAX_WEIGHT);
        let target = diff.clamp(-MAX_CP, MAX_CP) * GRAIN;
        let (s, p, m) = slots(pos);
        blend(&mut self.pawns[s][p], w, target);
        blend(&mut self.material[s][m], w, target);
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
        // Both tables converge on their bound (from below: the blend rounds down).
        let full = MAX_CP + MAX_CP / 2;
        assert!((full - 2..=full).contains(&ch.correction(&a)), "{}", ch.correction(&a));
        assert_eq!(ch.correction(&b), 0, "another pawn structure and side to move is untouched");
        for _ in 0..400 {
            ch.update(&a, 12, -20);
        }
        assert!((-30..=-28).contains(&ch.correction(&a)), "{}", ch.correction(&a));
    }
}
