//! The five mate heuristics of Janko 2015 (§4.1.1–4.1.4) and its two
//! improvements (promotion and king pin, §4.1.5). Every heuristic is turned into a cost to minimise: lower means
//! closer to mate.
//!
//! All of them look at the enemy king's *mate square*: the king's square and
//! the squares around it. The enemy king does not move during our series, so
//! the square is fixed for a whole search.

use crate::distance::distances;
use crate::error::ProgressiveError;
use bastion_core::attacks;
use bastion_core::{Bitboard, Color, Position, Role, Square};
use std::sync::OnceLock;

/// Which estimate of "how close to mate" guides the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Heuristic {
    /// Moves used so far only ("Izhodišče"): A* becomes depth-first search.
    Baseline,
    /// Sum of Manhattan distances of our pieces (pawns excepted) to the mate square.
    Manhattan,
    /// Attacks of our pieces on the mate square, counted with multiplicity,
    /// enemy pieces on it ignored ("Pokritost"; the best one).
    Coverage,
    /// Sum over our pieces of the move distance to attack the mate square ("Figure").
    Figures,
    /// Sum over the mate square's squares of the nearest piece's move distance ("Polja").
    Squares,
}

impl Heuristic {
    /// All five, in the order of Janko 2015, §4.1.
    pub const ALL: [Heuristic; 5] =
        [Heuristic::Baseline, Heuristic::Manhattan, Heuristic::Coverage, Heuristic::Figures, Heuristic::Squares];

    /// Average change of the cost from the root to a mate, per series move of
    /// the test set (x/y of Janko 2015, §4.2, measured with `bench-mates --calibrate`).
    /// Used for the A* path cost g(n) = moves used × x / y. Coverage is the
    /// tuned value (0.8; measured 0.64 without the extra terms, which add to it).
    /// Baseline keeps 0: its cost already is the depth.
    pub fn improvement_per_move(self) -> f32 {
        match self {
            Heuristic::Baseline => 0.0,
            Heuristic::Manhattan => 0.85,
            Heuristic::Coverage => 0.8,
            Heuristic::Figures => 0.41,
            Heuristic::Squares => 0.92,
        }
    }
}

impl std::str::FromStr for Heuristic {
    type Err = ProgressiveError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "baseline" | "izhodisce" | "depth" => Ok(Heuristic::Baseline),
            "manhattan" => Ok(Heuristic::Manhattan),
            "coverage" | "pokritost" => Ok(Heuristic::Coverage),
            "figures" | "pieces" | "figure" => Ok(Heuristic::Figures),
            "squares" | "polja" => Ok(Heuristic::Squares),
            _ => Err(ProgressiveError::BadOption(format!(
                "unknown heuristic {s:?} (baseline, manhattan, coverage, figures, squares)"
            ))),
        }
    }
}

const ROLES: [Role; 5] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

fn role_slot(role: Role) -> usize {
    match role {
        Role::Knight => 0,
        Role::Bishop => 1,
        Role::Rook => 2,
        Role::Queen => 3,
        _ => 4,
    }
}

/// Empty-board move distances: `moves[r][a][b]` moves for role r from a to b.
struct Tables {
    moves: Vec<[[u8; 64]; 64]>,
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut moves = Vec::new();
        for role in ROLES {
            let mut t = [[u8::MAX; 64]; 64];
            for (a, row) in t.iter_mut().enumerate() {
                let (start, none) = (Square::from_index(a), Bitboard::EMPTY);
                *row = distances(role, Color::White, start, none, none, none);
            }
            moves.push(t);
        }
        Tables { moves }
    })
}

/// Per-search constants: whose mate we look for and where the enemy king is.
pub struct MateContext {
    us: Color,
    them: Color,
    king: Square,
    square: Bitboard,
    heuristic: Heuristic,
    promotion: bool,
    pin: bool,
    manhattan: [u8; 64],
}

/// Weight of one move of promotion distance, in coverage units.
const PROMO_STEP: f32 = 1.6;
/// Reward for our king pinning the enemy king to one of its own sliders.
const PIN_KING: f32 = 3.0;
/// Reward for our king pinning another enemy piece.
const PIN_OTHER: f32 = 1.0;

impl MateContext {
    /// Prepares the heuristic for `board`, where `us` (the side to move) seeks mate.
    pub fn new(board: &Position, heuristic: Heuristic, promotion: bool, pin: bool) -> MateContext {
        let us = board.side_to_move();
        let them = !us;
        let king = board.king(them);
        let square = attacks::king_attacks(king).with(king);
        let mut manhattan = [0u8; 64];
        for (i, m) in manhattan.iter_mut().enumerate() {
            let s = Square::from_index(i);
            *m = square
                .map(|t| {
                    (s.file().index() as i32 - t.file().index() as i32).unsigned_abs()
                        + (s.rank().index() as i32 - t.rank().index() as i32).unsigned_abs()
                })
                .min()
                .unwrap_or(0) as u8;
        }
        if matches!(heuristic, Heuristic::Figures | Heuristic::Squares) {
            tables();
        }
        MateContext { us, them, king, square, heuristic, promotion, pin, manhattan }
    }

    /// The enemy king's square.
    pub fn enemy_king(&self) -> Square {
        self.king
    }

    /// The cost of `board` (ours to move, or just after our last move) with
    /// `left` moves of the series still to play. Lower is closer to mate.
    pub fn cost(&self, board: &Position, depth: u32, left: u32) -> f32 {
        let mut h = match self.heuristic {
            Heuristic::Baseline => -(depth as f32),
            Heuristic::Manhattan => self.manhattan(board) as f32,
            Heuristic::Coverage => -(self.coverage(board) as f32),
            Heuristic::Figures => self.figures(board) as f32,
            Heuristic::Squares => self.squares(board) as f32,
        };
        if self.promotion && left > 0 {
            if let Some(n) = self.promotion_distance(board, left) {
                // A pawn that can still promote (and act) is worth a little
                // coverage per step it has already made.
                h -= PROMO_STEP * (8.0 - n as f32).max(0.0) * 0.5;
            }
        }
        if self.pin {
            h -= self.pin_bonus(board);
        }
        h
    }

    /// Attacks of our pieces on the mate square, with multiplicity.
    pub fn coverage(&self, board: &Position) -> u32 {
        let occ = board.occupied();
        let mut n = 0;
        for sq in board.color_bb(self.us) {
            if let Some(role) = board.role_at(sq) {
                n += (attacks::attacks(role, self.us, sq, occ) & self.square).count();
            }
        }
        n
    }

    fn pieces(&self, board: &Position) -> Bitboard {
        board.color_bb(self.us) & !board.role_bb(Role::Pawn)
    }

    fn manhattan(&self, board: &Position) -> u32 {
        self.pieces(board).map(|s| self.manhattan[s.index()] as u32).sum()
    }

    /// Moves for the piece `role` on `from` to attack `target`, plus the
    /// pieces in the way (one move each to clear them).
    fn distance(&self, board: &Position, role: Role, from: Square, target: Square) -> u32 {
        let occ = board.occupied();
        let slot = role_slot(role);
        let t = &tables().moves[slot];
        // Squares from which the piece attacks the target on an empty board.
        let spots = attacks::attacks(role, self.us, target, Bitboard::EMPTY);
        let mut best = u32::MAX;
        for s in spots {
            let d = if s == from { 0 } else { t[from.index()][s.index()] as u32 };
            if d == u8::MAX as u32 || d >= best {
                continue;
            }
            let mut obstacles = (attacks::between(s, target).without(target) & occ).count();
            if d > 0 && s != from && board.piece_at(s).is_some() {
                obstacles += 1;
            }
            if d == 1 && matches!(role, Role::Bishop | Role::Rook | Role::Queen) {
                obstacles += (attacks::between(from, s).without(s) & occ).count();
            }
            best = best.min(d + obstacles);
        }
        best.min(16)
    }

    fn figures(&self, board: &Position) -> u32 {
        let mut total = 0;
        for from in self.pieces(board) {
            let role = board.role_at(from).unwrap_or(Role::King);
            total += self.square.map(|t| self.distance(board, role, from, t)).min().unwrap_or(0);
        }
        total
    }

    fn squares(&self, board: &Position) -> u32 {
        let pieces: Vec<(Square, Role)> =
            self.pieces(board).map(|s| (s, board.role_at(s).unwrap_or(Role::King))).collect();
        let mut total = 0;
        for t in self.square {
            total += pieces.iter().map(|&(s, r)| self.distance(board, r, s, t)).min().unwrap_or(16);
        }
        total
    }

    /// Moves the nearest of our pawns needs to promote within `left` moves,
    /// never passing a square where it would give check before the last move
    /// (the bitboard walk of Janko 2015, Appendix A.3, Algorithm 3).
    pub fn promotion_distance(&self, board: &Position, left: u32) -> Option<u32> {
        let mut pawns = board.pieces(self.us, Role::Pawn);
        if pawns.is_empty() {
            return None;
        }
        let empty = !board.occupied();
        let victims = board.color_bb(self.them) & !board.role_bb(Role::King);
        let forbidden = attacks::pawn_attacks(self.them, self.king);
        let (last_rank, second_rank) = match self.us {
            Color::White => (Bitboard(0xFF00_0000_0000_0000), Bitboard(0x0000_0000_0000_FF00)),
            Color::Black => (Bitboard(0x0000_0000_0000_00FF), Bitboard(0x00FF_0000_0000_0000)),
        };
        let fwd = |b: Bitboard| if self.us == Color::White { b.north() } else { b.south() };
        const NOT_A: u64 = !0x0101_0101_0101_0101;
        const NOT_H: u64 = !0x8080_8080_8080_8080;
        for n in 1..=left.min(7) {
            let start = pawns;
            let pushes = fwd(start) & empty;
            let doubles = fwd(fwd(start & second_rank) & empty) & empty;
            let f = fwd(start);
            let caps = (Bitboard((f.0 & NOT_A) >> 1) | Bitboard((f.0 & NOT_H) << 1)) & victims;
            let mut next = pushes | doubles | caps;
            if n < left {
                next &= !forbidden;
            }
            if (next & last_rank).nonempty() {
                return Some(n);
            }
            pawns = next | start;
            if next.is_empty() {
                return None;
            }
        }
        None
    }

    /// Reward for our king standing where it pins an enemy piece to an enemy
    /// slider: moving that piece off the line would give check, illegal before
    /// the last move of the enemy's series (the Italian mate of Fig. 4.4).
    fn pin_bonus(&self, board: &Position) -> f32 {
        let our_king = board.king(self.us);
        let occ = board.occupied();
        let mut best = 0.0f32;
        let sliders = [(board.diagonal_sliders(self.them), true), (board.orthogonal_sliders(self.them), false)];
        for (set, diagonal) in sliders {
            for s in set {
                let ray = if diagonal {
                    attacks::bishop_attacks(s, Bitboard::EMPTY)
                } else {
                    attacks::rook_attacks(s, Bitboard::EMPTY)
                };
                if !ray.contains(our_king) {
                    continue;
                }
                let between = attacks::between(s, our_king).without(our_king) & occ;
                if between.count() == 1 {
                    let x = between.lsb();
                    if board.color_bb(self.them).contains(x) {
                        best = best.max(if x == self.king { PIN_KING } else { PIN_OTHER });
                    }
                }
            }
        }
        best
    }
}
