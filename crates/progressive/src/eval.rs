//! The weighted evaluation of Janko 2015 (§5.1, Table 5.1) and its endgame
//! heuristics (§6.2.2), in pawns, from one side's point of view.
//!
//! Every term is computed for both sides and the opponent's value is
//! subtracted, as in Janko 2015, §5.1. The evaluation looks at a position at a
//! series boundary (or inside a series, for the series search); a position
//! where the side to move is checkmated or stalemated is scored by the search.

use crate::distance::edge_distance;
use bastion_core::attacks;
use bastion_core::{Bitboard, Color, Position, Role, Square};

/// Which terms of the evaluation are used (for ablations like those of Janko 2015, §5.4).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct EvalOptions {
    /// Promotable pawns and distance to promotion.
    pub promotion: bool,
    /// King on its second rank, free squares around it, king-and-bishop formation.
    pub king_safety: bool,
    /// Switch to the endgame heuristics when a side has at most one piece.
    pub endgame: bool,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions { promotion: true, king_safety: true, endgame: true }
    }
}

/// Value in pawns of a mate (∞ in Janko 2015, §5.1, kept finite for arithmetic).
pub const MATE_SCORE: f32 = 10_000.0;

fn material(board: &Position, c: Color) -> f32 {
    9.0 * board.count(c, Role::Queen) as f32
        + 5.0 * board.count(c, Role::Rook) as f32
        + 3.0 * board.count(c, Role::Bishop) as f32
        + 3.0 * board.count(c, Role::Knight) as f32
        + board.count(c, Role::Pawn) as f32
}

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;

fn forward(c: Color, b: Bitboard) -> Bitboard {
    if c == Color::White {
        b.north()
    } else {
        b.south()
    }
}

/// For `c`'s pawns: how many can still promote (path not blocked, no square
/// on the way that would check the enemy king), and the fewest moves any needs.
pub fn promotion_prospects(board: &Position, c: Color) -> (u32, Option<u32>) {
    let them = !c;
    let empty = !board.occupied();
    let victims = board.color_bb(them) & !board.role_bb(Role::King);
    let forbidden = attacks::pawn_attacks(them, board.king(them));
    let last_rank = Bitboard::rank(bastion_core::Rank::EIGHTH.relative(c));
    let second = Bitboard::rank(bastion_core::Rank::ALL[1].relative(c));
    let mut count = 0;
    let mut best: Option<u32> = None;
    for pawn in board.pieces(c, Role::Pawn) {
        let mut set = Bitboard::from_square(pawn);
        for n in 1..=7u32 {
            let f = forward(c, set);
            let pushes = f & empty;
            let doubles = forward(c, forward(c, set & second) & empty) & empty;
            let caps = (Bitboard((f.0 & NOT_A) >> 1) | Bitboard((f.0 & NOT_H) << 1)) & victims;
            let next = pushes | doubles | caps;
            if (next & last_rank).nonempty() {
                count += 1;
                best = Some(best.map_or(n, |b| b.min(n)));
                break;
            }
            set = next & !forbidden;
            if set.is_empty() {
                break;
            }
        }
    }
    (count, best)
}

fn king_safety(board: &Position, c: Color) -> f32 {
    let k = board.king(c);
    let rel = k.rank().relative(c).index();
    let mut v = 0.0;
    if rel == 1 {
        v += 0.8;
    }
    v += 0.25 * (attacks::king_attacks(k) & !board.occupied()).count() as f32;
    if rel == 0 {
        let front = if c == Color::White { k.offset(8) } else { k.offset(-8) };
        if front.is_some_and(|f| board.pieces(c, Role::Bishop).contains(f)) {
            v += 1.5;
        }
    }
    v
}

fn pieces_without_pawns(board: &Position, c: Color) -> Bitboard {
    board.color_bb(c) & !board.role_bb(Role::Pawn) & !board.role_bb(Role::King)
}

/// The side's terms of Table 5.1 (material, promotion, king safety, advanced
/// pieces, bishop avoidance).
fn side_terms(board: &Position, c: Color, opts: &EvalOptions, endgame: bool) -> f32 {
    let mut v = material(board, c);
    if opts.promotion {
        let (n, dist) = promotion_prospects(board, c);
        v += 0.4 * n as f32;
        if n == 0 {
            v -= 6.0;
        }
        if let Some(d) = dist {
            v -= 0.4 * d as f32;
        }
    }
    if endgame {
        // The endgame heuristics replace king safety and the advanced-piece bonus.
        return v + bishop_avoidance(board, c);
    }
    if opts.king_safety {
        v += king_safety(board, c);
    }
    let last_two =
        Bitboard::rank(bastion_core::Rank::EIGHTH.relative(c)) | Bitboard::rank(bastion_core::Rank::ALL[6].relative(c));
    if (pieces_without_pawns(board, c) & last_two).nonempty() {
        v += 2.0;
    }
    v + bishop_avoidance(board, c)
}

/// −0.2 per piece of `c` on the squares of a lone enemy bishop's colour.
fn bishop_avoidance(board: &Position, c: Color) -> f32 {
    let their_bishops = board.pieces(!c, Role::Bishop);
    if their_bishops.count() == 1 {
        let colour = if (their_bishops & Bitboard::LIGHT).nonempty() { Bitboard::LIGHT } else { Bitboard::DARK };
        -0.2 * (board.color_bb(c) & colour & !board.role_bb(Role::King)).count() as f32
    } else {
        0.0
    }
}

/// True if the position is an endgame in the sense of Janko 2015, §6.2.2:
/// some side has at most one piece besides king and pawns.
pub fn is_endgame(board: &Position) -> bool {
    Color::ALL.iter().any(|&c| pieces_without_pawns(board, c).count() <= 1)
}

/// Squares where `c`'s king can stand after exactly `n` king moves (or after
/// at most `n` if it has other moves to spend), never entering attacked squares.
fn king_end_squares(board: &Position, c: Color, n: u32) -> Bitboard {
    let enemy = !c;
    let occ_without_king = board.occupied().without(board.king(c));
    let mut attacked = Bitboard::EMPTY;
    for sq in board.color_bb(enemy) {
        if let Some(role) = board.role_at(sq) {
            attacked |= attacks::attacks(role, enemy, sq, occ_without_king);
        }
    }
    // The king may take an unprotected enemy piece, never stand on its own.
    let walkable = !attacked & !board.color_bb(c);
    let mut cur = Bitboard::from_square(board.king(c));
    let mut any = cur;
    for _ in 0..n.min(16) {
        let mut next = Bitboard::EMPTY;
        for s in cur {
            next |= attacks::king_attacks(s);
        }
        cur = next & walkable;
        any |= cur;
        if cur.is_empty() {
            break;
        }
    }
    let others = board.color_bb(c).without(board.king(c));
    let tempo = others.into_iter().any(|s| !board.legal_moves_from(s).is_empty() || board.side_to_move() != c);
    if tempo {
        any
    } else {
        cur
    }
}

fn centre_distance(s: Square) -> f32 {
    let f = s.file().index() as f32 - 3.5;
    let r = s.rank().index() as f32 - 3.5;
    f.abs().max(r.abs())
}

/// Endgame terms for `c` attacking the lone enemy king (Janko 2015, §6.2.2).
fn endgame_terms(board: &Position, c: Color, their_series: u32) -> f32 {
    let them = !c;
    let mut v = 0.0;
    let their_king = board.king(them);
    // Defence: our pieces the enemy king can reach and take unprotected.
    let reach = king_end_squares(board, them, their_series);
    let mut reach_any = Bitboard::from_square(their_king);
    let mut cur = reach_any;
    let our_attacks = board.attacked_squares(c);
    for _ in 0..their_series.min(16) {
        let mut next = Bitboard::EMPTY;
        for s in cur {
            next |= attacks::king_attacks(s);
        }
        cur = next & !(our_attacks & !board.color_bb(c)) & !board.color_bb(them);
        reach_any |= cur;
    }
    for sq in reach_any & board.color_bb(c) & !board.role_bb(Role::King) {
        let defended = (board.attackers_to(sq, board.occupied()) & board.color_bb(c)).nonempty();
        if !defended {
            let role = board.role_at(sq).unwrap_or(Role::Pawn);
            v -= match role {
                Role::Queen => 9.0,
                Role::Rook => 5.0,
                Role::Bishop | Role::Knight => 3.0,
                _ => 1.0,
            } * 0.9;
        }
    }
    // Coverage of the enemy king's square.
    let square = attacks::king_attacks(their_king).with(their_king);
    let occ = board.occupied();
    let mut cov = 0;
    for sq in board.color_bb(c) {
        if let Some(role) = board.role_at(sq) {
            cov += (attacks::attacks(role, c, sq, occ) & square).count();
        }
    }
    v += 0.1 * cov as f32;
    // Edge distance of the squares where the enemy king can end its series.
    match reach.into_iter().map(edge_distance).max() {
        // The worst case for us: the most central square it can finish on;
        // the size of its region breaks ties so that boxes shrink.
        Some(d) => v -= 1.0 * d as f32 + 0.04 * reach.count() as f32,
        None => v -= 2.0, // it cannot finish a series with its king: stalemate risk
    }
    // Our king toward the centre.
    v -= 0.15 * centre_distance(board.king(c));
    v
}

/// Evaluates `board` for `pov` in pawns (positive = good for `pov`).
/// `next_series` is the length of the next series of the side to move on the
/// board after this one (used by the endgame terms).
pub fn evaluate(board: &Position, pov: Color, opts: &EvalOptions, series_of: impl Fn(Color) -> u32) -> f32 {
    let them = !pov;
    let endgame = opts.endgame && is_endgame(board);
    let mut v = side_terms(board, pov, opts, endgame) - side_terms(board, them, opts, endgame);
    if board.in_check() {
        // Ending a series with check costs the opponent its first move.
        v += if board.side_to_move() == pov { -1.0 } else { 1.0 };
    }
    if endgame {
        let ours = pieces_without_pawns(board, pov).count();
        let theirs = pieces_without_pawns(board, them).count();
        // The stronger side drives the king; the other side defends its pieces too.
        if theirs <= 1 && (ours >= theirs) {
            v += endgame_terms(board, pov, series_of(them));
        }
        if ours <= 1 && theirs >= ours {
            v -= endgame_terms(board, them, series_of(pov));
        }
    }
    v
}
