//! Static-evaluation correction history: how far the search's results have strayed from
//! the static evaluation in positions with the same pawn structure, and in positions with
//! the same material, by side to move; optionally also by each side's non-pawn pieces and
//! by the last two moves.
//!
//! The evaluation is systematically wrong about some structures (blocked chains, far
//! passers); the search finds out, and these tables carry that knowledge to sibling
//! positions so that pruning decisions that rest on the static evaluation improve.

use super::ordering::{ContIndex, NONE_CONT};
use bastion_core::{Color, Position, Role};

const SIZE: usize = 16_384;
/// Entries are kept in 1/GRAIN centipawn.
const GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const MAX_CP: i32 = 64;
/// Weight of a new observation is `min(depth + 1, MAX_WEIGHT)` out of 256.
const MAX_WEIGHT: i32 = 16;

type Table = Box<[[i32; SIZE]; 2]>;

/// Which of the optional tables take part (the search parameters' switches).
#[derive(Clone, Copy, Default)]
pub(crate) struct CorrectionUse {
    /// Tables keyed by each side's non-pawn pieces (kings included).
    pub non_pawn: bool,
    /// A table keyed by the last two moves' (piece, destination) pairs.
    pub moves: bool,
}

/// The last two moves as continuation indices: `[one ply back, two plies back]`.
pub(crate) type LastMoves = [ContIndex; 2];

/// Correction tables of one search thread.
pub(crate) struct CorrectionHistory {
    pawns: Table,
    material: Table,
    /// `[colour of the pieces]` of `[side to move][key]`.
    non_pawn: [Table; 2],
    /// `[two plies back * 768 + one ply back]`, side to move implied by the pieces.
    moves: Vec<i32>,
    /// Which optional tables are read and written.
    pub used: CorrectionUse,
}

fn table() -> Table {
    vec![[0; SIZE]; 2].into_boxed_slice().try_into().unwrap()
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawns: table(),
            material: table(),
            non_pawn: [table(), table()],
            moves: vec![0; 768 * 768],
            used: CorrectionUse::default(),
        }
    }
}

/// Index of the placement of `c`'s knights, bishops, rooks, queens and king.
fn non_pawn_index(pos: &Position, c: Color) -> usize {
    let mut h = 0u64;
    for r in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
        h = (h ^ pos.pieces(c, r).0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    (h >> 50) as usize & (SIZE - 1)
}

fn moves_index(last: LastMoves) -> Option<usize> {
    (last[0] != NONE_CONT && last[1] != NONE_CONT).then(|| last[1] * 768 + last[0])
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
    /// Forgets everything learnt; which tables are used stays.
    pub fn clear(&mut self) {
        *self = CorrectionHistory { used: self.used, ..CorrectionHistory::default() };
    }

    /// The correction in centipawns to add to the static evaluation of `pos`, reached by
    /// the moves `last`.
    #[inline]
    pub fn correction(&self, pos: &Position, last: LastMoves) -> i32 {
        let (s, p, m) = slots(pos);
        let mut sum = self.pawns[s][p] + self.material[s][m] / 2;
        if self.used.non_pawn {
            for c in Color::ALL {
                sum += self.non_pawn[c.index()][s][non_pawn_index(pos, c)] / 2;
            }
        }
        if self.used.moves {
            if let Some(i) = moves_index(last) {
                sum += self.moves[i] / 2;
            }
        }
        sum / GRAIN
    }

    /// Records that a search of `depth` found `diff` centipawns more than the corrected
    /// static evaluation of `pos`, reached by the moves `last`.
    pub fn update(&mut self, pos: &Position, last: LastMoves, depth: i32, diff: i32) {
        let w = (depth + 1).min(MAX_WEIGHT);
        let target = diff.clamp(-MAX_CP, MAX_CP) * GRAIN;
        let (s, p, m) = slots(pos);
        blend(&mut self.pawns[s][p], w, target);
        blend(&mut self.material[s][m], w, target);
        if self.used.non_pawn {
            for c in Color::ALL {
                blend(&mut self.non_pawn[c.index()][s][non_pawn_index(pos, c)], w, target);
            }
        }
        if self.used.moves {
            if let Some(i) = moves_index(last) {
                blend(&mut self.moves[i], w, target);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_MOVES: LastMoves = [NONE_CONT; 2];

    #[test]
    fn corrections_follow_results_and_stay_bounded_and_per_structure() {
        let mut ch = CorrectionHistory::default();
        let a = Position::startpos();
        let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(ch.correction(&a, NO_MOVES), 0);
        for _ in 0..200 {
            ch.update(&a, NO_MOVES, 12, 500);
        }
        // Both tables converge on their bound (from below: the blend rounds down).
        let full = MAX_CP + MAX_CP / 2;
        assert!((full - 2..=full).contains(&ch.correction(&a, NO_MOVES)), "{}", ch.correction(&a, NO_MOVES));
        assert_eq!(ch.correction(&b, NO_MOVES), 0, "another pawn structure and side to move is untouched");
        for _ in 0..400 {
            ch.update(&a, NO_MOVES, 12, -20);
        }
        assert!((-30..=-28).contains(&ch.correction(&a, NO_MOVES)), "{}", ch.correction(&a, NO_MOVES));
    }

    #[test]
    fn optional_tables_key_on_non_pawn_pieces_and_last_moves_only_when_used() {
        let a = Position::startpos();
        // Same pawns and material as `a`, a knight elsewhere.
        let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1").unwrap();
        let moves_a: LastMoves = [5, 700];
        let moves_b: LastMoves = [6, 700];
        let mut plain = CorrectionHistory::default();
        for _ in 0..200 {
            plain.update(&a, moves_a, 12, 40);
        }
        assert_eq!(plain.correction(&a, moves_a), plain.correction(&b, moves_b), "unused tables are not read");

        let mut ch = CorrectionHistory { used: CorrectionUse { non_pawn: true, moves: false }, ..Default::default() };
        for _ in 0..200 {
            ch.update(&a, moves_a, 12, 40);
        }
        assert!(ch.correction(&a, moves_a) > ch.correction(&b, moves_a), "the knight's move changes the key");

        let mut ch = CorrectionHistory { used: CorrectionUse { non_pawn: false, moves: true }, ..Default::default() };
        for _ in 0..200 {
            ch.update(&a, moves_a, 12, 40);
        }
        assert!(ch.correction(&a, moves_a) > ch.correction(&a, moves_b), "another last move, another entry");
        assert_eq!(ch.correction(&a, [NONE_CONT, 700]), plain.correction(&a, moves_a), "no last move: no entry");
        ch.clear();
        assert_eq!(ch.correction(&a, moves_a), 0);
        assert!(ch.used.moves, "clearing keeps the switches");
    }
}
