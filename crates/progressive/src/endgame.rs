//! Series planner for the stronger side against a lone king (K + one to
//! three pieces, no pawns, against a bare king), and the bare king's defence.
//!
//! The lone king stands still during our series, so what our series achieves
//! is a *placement* of our pieces. Instead of searching move orders with the
//! evaluation at every partial series (which cannot see past the temporary
//! loosening of a box while pieces are regrouped), the planner
//!
//! 1. enumerates target placements of our king and pieces that the series can
//!    reach (per-piece move distances, tempo moves fill the rest),
//! 2. scores each by the enemy king's reply: the squares where its next series
//!    (one move longer than ours) can *end*, found by exact-length king walks
//!    through squares we do not attack (so the series parity counts), the most
//!    central of them (the edge-distance heuristic of Janko 2015, §6.2.2,
//!    worst case), the size of the region it can reach, and rejects
//!    placements that hang a piece to the king or stalemate it,
//! 3. builds a legal series (no check before the last move) that reaches the
//!    best placement, by depth-first search ordered and pruned by the summed
//!    move distances, falling back to the next placement when that fails.
//!
//! With three pieces one of them keeps its square in each placement (moving
//! all would multiply the placements by 64). The bare king's side uses the
//! same measure the other way round: it ends its walk where the attacker's
//! best next placement scores worst.

use crate::distance::{distances, edge_distance};
use crate::series::SeriesPosition;
use bastion_core::{attacks, Bitboard, Color, Move, Position, Role, Square};
use std::collections::HashSet;
use std::time::Instant;

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// All squares a king step away from a member of `b`.
fn spread(b: u64) -> u64 {
    let lr = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | lr;
    lr | (row << 8) | (row >> 8)
}

/// What a lone king can do in a series of a given length against a fixed
/// placement of the enemy pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingReply {
    /// It has no legal first move and is in check: mate.
    Mated,
    /// It runs out of moves inside its series (or has none): a draw.
    Stalemated,
    /// It can play its series: `ends` = squares where the series can end,
    /// `reach` = every square it can visit on the way.
    Walks {
        /// Squares where an exact-length walk can finish.
        ends: Bitboard,
        /// Squares visited by some walk.
        reach: Bitboard,
    },
}

/// Exact-length king walks from `start` through `walkable` squares. A walk
/// that gets stuck before its last step is a draw the defender may choose, so
/// any square visited before the last step without a walkable neighbour makes
/// the reply [`KingReply::Stalemated`].
pub fn king_reply(start: Square, walkable: Bitboard, steps: u32, in_check: bool) -> KingReply {
    let w = walkable.0;
    let dead = !spread(w);
    let mut cur = 1u64 << start.index();
    let mut prev = 0u64;
    let mut prev2;
    let mut reach = 0u64;
    for t in 1..=steps {
        prev2 = prev;
        prev = cur;
        cur = spread(cur) & w;
        if cur == 0 {
            return if t == 1 && in_check { KingReply::Mated } else { KingReply::Stalemated };
        }
        if t < steps && cur & dead != 0 {
            return KingReply::Stalemated;
        }
        reach |= cur;
        if cur == prev2 {
            // The walk sets repeat with period two from here on.
            let ends = if (steps - t).is_multiple_of(2) { cur } else { prev };
            // Every square of the cycle is visited on the way as well.
            return KingReply::Walks { ends: Bitboard(ends), reach: Bitboard(reach | prev) };
        }
    }
    KingReply::Walks { ends: Bitboard(cur), reach: Bitboard(reach) }
}

/// One of our units: its role and square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unit {
    role: Role,
    sq: Square,
}

/// Scores a placement of our `units` (king included) against the lone king on
/// `k` whose next series has `steps` moves (higher is better for us); `None`
/// when it must not be played: illegal, a piece hangs, or the king can get
/// itself stalemated.
fn score_placement(units: &[Unit], k: Square, us: Color, steps: u32) -> Option<f32> {
    let mut occ = Bitboard::EMPTY;
    for u in units {
        occ = occ.with(u.sq);
    }
    let mut att = Bitboard::EMPTY;
    let mut checkers = 0;
    let mut king_sq = None;
    for u in units {
        let a = attacks::attacks(u.role, us, u.sq, occ);
        if u.role == Role::King {
            king_sq = Some(u.sq);
            if a.contains(k) {
                return None;
            }
        } else if a.contains(k) {
            checkers += 1;
        }
        att |= a;
    }
    if checkers > 1 {
        return None;
    }
    let pieces = occ.without(king_sq?);
    let in_check = checkers == 1;
    match king_reply(k, !att, steps, in_check) {
        KingReply::Mated => Some(1e6),
        KingReply::Stalemated => None,
        KingReply::Walks { ends, reach } => {
            if (reach & pieces).nonempty() {
                // The king can take an undefended piece.
                return None;
            }
            let dmax = ends.into_iter().map(edge_distance).max().unwrap_or(0);
            let ks = king_sq?;
            // The edge distance of the worst final square first (Janko 2015,
            // §6.2.2); the size of the region breaks ties so that boxes
            // shrink, and our king keeps close for the next series.
            Some(
                -10.0 * dmax as f32
                    - 0.3 * reach.count() as f32
                    - 0.1 * ends.count() as f32
                    - 0.2 * ks.distance(k) as f32,
            )
        }
    }
}

/// Squares from which a `role` piece of `us` would attack `k` on `occ`.
fn checking_squares(role: Role, us: Color, k: Square, occ: Bitboard) -> Bitboard {
    match role {
        // Attacks are symmetric for these roles (a pawn never occurs here).
        Role::Pawn => attacks::pawn_attacks(!us, k),
        _ => attacks::attacks(role, !us, k, occ),
    }
}

/// True when the planner applies: the side to move has a king and one to
/// three pieces (no pawns), the opponent a bare king.
pub fn applies(board: &Position) -> bool {
    let us = board.side_to_move();
    let them = !us;
    let ours = board.color_bb(us);
    let n = (ours & !board.role_bb(Role::King)).count();
    board.color_bb(them).count() == 1 && board.pieces(us, Role::Pawn).is_empty() && (1..=3).contains(&n)
}

/// Our units (king first) and their move distances from where they stand.
struct Units {
    units: Vec<Unit>,
    dist: Vec<[u8; 64]>,
}

impl Units {
    /// The units of `us` on `board`, with the lone enemy king taken to stand on `k`.
    fn new(board: &Position, us: Color, k: Square) -> Option<Units> {
        let mut units: Vec<Unit> = Vec::new();
        for sq in board.color_bb(us) {
            units.push(Unit { role: board.role_at(sq)?, sq });
        }
        units.sort_by_key(|u| u.role != Role::King);
        let kb = Bitboard::from_square(k);
        let near_k = attacks::king_attacks(k) | kb;
        let occ = board.color_bb(us);
        let dist = units
            .iter()
            .map(|u| {
                if u.role == Role::King {
                    distances(Role::King, us, u.sq, kb, Bitboard::EMPTY, near_k)
                } else {
                    let no_stop = checking_squares(u.role, us, k, occ.without(u.sq));
                    distances(u.role, us, u.sq, kb, no_stop, kb)
                }
            })
            .collect();
        Some(Units { units, dist })
    }

    /// Calls `f` with every placement reachable in `n` moves and its score
    /// against the king on `k` whose next series has `steps` moves.
    fn placements(&self, us: Color, k: Square, n: u32, steps: u32, deadline: Instant, mut f: impl FnMut(&[Unit], f32)) {
        let targets = |i: usize, budget: u32| -> Vec<(Square, u32)> {
            Square::all()
                .filter_map(|s| {
                    let d = self.dist[i][s.index()] as u32;
                    (d <= budget).then_some((s, d))
                })
                .collect()
        };
        let mut try_one = |units: &[Unit]| {
            if let Some(v) = score_placement(units, k, us, steps) {
                f(units, v);
            }
        };
        let king = self.units[0].role;
        match self.units.len() {
            2 => {
                for (t1, d1) in targets(1, n) {
                    for (tk, _) in targets(0, n - d1) {
                        if tk != t1 {
                            try_one(&[Unit { role: king, sq: tk }, Unit { role: self.units[1].role, sq: t1 }]);
                        }
                    }
                }
            }
            3 => self.pairs(1, 2, None, n, deadline, &targets, &mut try_one),
            4 => {
                // Three pieces: two move, the third stays (all of them moving
                // would be 64 times as many placements).
                for (a, b, still) in [(1, 2, 3), (1, 3, 2), (2, 3, 1)] {
                    self.pairs(a, b, Some(self.units[still]), n, deadline, &targets, &mut try_one);
                }
            }
            _ => {}
        }
    }
}

impl Units {
    /// Placements moving the king and the pieces `a` and `b` (`still`, if
    /// given, keeps its square).
    #[allow(clippy::too_many_arguments)]
    fn pairs(
        &self,
        a: usize,
        b: usize,
        still: Option<Unit>,
        n: u32,
        deadline: Instant,
        targets: &impl Fn(usize, u32) -> Vec<(Square, u32)>,
        try_one: &mut impl FnMut(&[Unit]),
    ) {
        let king = self.units[0].role;
        let blocked = still.map_or(Bitboard::EMPTY, |u| Bitboard::from_square(u.sq));
        let tbs = targets(b, n);
        for (ta, da) in targets(a, n) {
            if blocked.contains(ta) {
                continue;
            }
            for &(tb, db) in &tbs {
                if tb == ta || da + db > n || blocked.contains(tb) {
                    continue;
                }
                for (tk, _) in targets(0, n - da - db) {
                    if tk == ta || tk == tb || blocked.contains(tk) {
                        continue;
                    }
                    let moved = [
                        Unit { role: king, sq: tk },
                        Unit { role: self.units[a].role, sq: ta },
                        Unit { role: self.units[b].role, sq: tb },
                    ];
                    match still {
                        None => try_one(&moved),
                        Some(u) => try_one(&[moved[0], moved[1], moved[2], u]),
                    }
                }
            }
            if Instant::now() >= deadline {
                break;
            }
        }
    }
}

/// Chooses the rest of the current series for the side to move, or `None`
/// when the planner does not apply or finds nothing before `deadline`.
pub fn plan_series(pos: &SeriesPosition, deadline: Instant) -> Option<Vec<Move>> {
    let board = pos.board();
    if !applies(board) {
        return None;
    }
    let us = board.side_to_move();
    let k = board.king(!us);
    // The opponent's next series is one move longer than ours.
    let steps = pos.series_len() + 1;
    let units = Units::new(board, us, k)?;
    let mut plans: Vec<(f32, [Unit; 4], usize)> = Vec::new();
    units.placements(us, k, pos.moves_left(), steps, deadline, |u, v| {
        let mut arr = [u[0]; 4];
        arr[..u.len()].copy_from_slice(u);
        plans.push((v, arr, u.len()));
    });
    plans.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (tries, plan) in plans.iter().enumerate() {
        if tries >= 40 || Instant::now() >= deadline {
            break;
        }
        if let Some(moves) = construct(pos, &plan.1[..plan.2], 20_000) {
            return Some(moves);
        }
    }
    None
}

/// Squares attacked by `c`'s pieces, their rays passing through the enemy
/// king (it cannot step back along a line it is attacked on).
fn attacked_by(board: &Position, c: Color) -> Bitboard {
    let occ = board.occupied().without(board.king(!c));
    let mut att = Bitboard::EMPTY;
    for sq in board.color_bb(c) {
        if let Some(role) = board.role_at(sq) {
            att |= attacks::attacks(role, c, sq, occ);
        }
    }
    att
}

/// What the side to move can do with its king in the rest of its series
/// when it has nothing else (`None` if it has other men): the squares its
/// walks can end on and visit, or whether it is mated or can be stalemated.
pub fn bare_king_reply(pos: &SeriesPosition) -> Option<KingReply> {
    let board = pos.board();
    let us = board.side_to_move();
    if board.color_bb(us).count() != 1 {
        return None;
    }
    let walkable = !attacked_by(board, !us);
    Some(king_reply(board.king(us), walkable, pos.moves_left(), board.in_check()))
}

/// True when the side to move has a bare king against a king with one or two
/// pieces (no pawns): the situation [`defend_series`] handles.
pub fn defends(board: &Position) -> bool {
    let us = board.side_to_move();
    let them = !us;
    let theirs = board.color_bb(them) & !board.role_bb(Role::King);
    board.color_bb(us).count() == 1 && board.pieces(them, Role::Pawn).is_empty() && (1..=2).contains(&theirs.count())
}

/// The lone king's series against one or two pieces: a walk that ends where
/// the attacker's best placement in its next series scores worst for it (the
/// planner's own measure, so the defence is as strong as the attack is
/// clever). Returns `None` (leaving the choice to the series search) when the
/// king can take a piece or get itself stalemated, which the search values
/// by material and as a draw.
pub fn defend_series(pos: &SeriesPosition, deadline: Instant) -> Option<Vec<Move>> {
    let board = pos.board();
    if !defends(board) || pos.played() != 0 {
        return None;
    }
    let us = board.side_to_move();
    let them = !us;
    let k = board.king(us);
    let steps = pos.series_len();
    let occ = board.color_bb(them);
    let walkable = !attacked_by(board, them);
    let KingReply::Walks { ends, reach } = bare_king_reply(pos)? else {
        return None;
    };
    if (reach & occ).nonempty() {
        return None;
    }
    // Their next series, and ours after it.
    let n_next = steps + 1;
    let mut best: Option<(f32, u32, Square)> = None;
    for s in ends {
        if Instant::now() >= deadline {
            break;
        }
        let units = Units::new(board, them, s)?;
        let mut top = f32::NEG_INFINITY;
        units.placements(them, s, n_next, n_next + 1, deadline, |_, v| top = top.max(v));
        let key = (top, edge_distance(s), s);
        let better = match best {
            None => true,
            Some((v, d, _)) => top < v || (top == v && key.1 > d),
        };
        if better {
            best = Some(key);
        }
    }
    let (_, _, target) = best?;
    // Layers of the walk, then back from the target.
    let mut layers = vec![Bitboard::from_square(k).0];
    for _ in 0..steps {
        let next = spread(*layers.last()?) & walkable.0;
        layers.push(next);
    }
    let mut squares = vec![target];
    for t in (0..steps as usize).rev() {
        let here = *squares.last()?;
        let prev = Bitboard(layers[t] & attacks::king_attacks(here).0).first()?;
        squares.push(prev);
    }
    squares.reverse();
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for w in squares.windows(2) {
        let m = *p.legal_moves().iter().find(|m| m.from() == w[0] && m.to() == w[1])?;
        moves.push(m);
        p = p.play_unchecked(m);
    }
    Some(moves)
}

/// Distances to `target` for a unit of `role` (moves are symmetric, so a BFS
/// from the target gives the distance from every square to it).
fn distances_to(role: Role, us: Color, target: Square, k: Square) -> [u8; 64] {
    let kb = Bitboard::from_square(k);
    let forbidden = if role == Role::King { attacks::king_attacks(k) | kb } else { kb };
    distances(role, us, target, kb, Bitboard::EMPTY, forbidden)
}

struct Builder {
    us: Color,
    /// Per target unit: its role, target square and distance map.
    goals: Vec<(Role, Square, [u8; 64])>,
    failed: HashSet<u64>,
    nodes: u64,
    budget: u64,
    path: Vec<Move>,
}

impl Builder {
    /// Lower bound on the moves still needed (the best matching of units of
    /// the same role to their targets).
    fn h(&self, board: &Position) -> u32 {
        let mut total = 0u32;
        let mut i = 0;
        while i < self.goals.len() {
            let role = self.goals[i].0;
            let mut j = i;
            while j < self.goals.len() && self.goals[j].0 == role {
                j += 1;
            }
            let have: Vec<Square> = board.pieces(self.us, role).into_iter().collect();
            let goals = &self.goals[i..j];
            if have.len() != goals.len() {
                return u32::MAX / 4;
            }
            let cost = |g: &(Role, Square, [u8; 64]), s: Square| g.2[s.index()] as u32;
            total += match goals.len() {
                1 => cost(&goals[0], have[0]),
                2 => (cost(&goals[0], have[0]) + cost(&goals[1], have[1]))
                    .min(cost(&goals[0], have[1]) + cost(&goals[1], have[0])),
                _ => return u32::MAX / 4,
            };
            i = j;
        }
        total
    }

    fn dfs(&mut self, pos: &SeriesPosition, left: u32) -> bool {
        if left == 0 {
            return self.h(pos.board()) == 0;
        }
        self.nodes += 1;
        if self.nodes > self.budget || !self.failed.insert(pos.key()) {
            return false;
        }
        let mut children: Vec<(u32, Move, SeriesPosition)> = Vec::new();
        pos.for_each_child(|m, child| {
            let h = self.h(child.board());
            if h < left {
                children.push((h, m, child));
            }
        });
        children.sort_by_key(|c| c.0);
        for (_, m, child) in children {
            self.path.push(m);
            if self.dfs(&child, left - 1) {
                return true;
            }
            self.path.pop();
        }
        false
    }
}

/// A legal series (the rest of the current one) that ends with our units on
/// `units`, found within `budget` nodes.
fn construct(pos: &SeriesPosition, units: &[Unit], budget: u64) -> Option<Vec<Move>> {
    let board = pos.board();
    let us = board.side_to_move();
    let k = board.king(!us);
    let mut goals: Vec<(Role, Square, [u8; 64])> =
        units.iter().map(|u| (u.role, u.sq, distances_to(u.role, us, u.sq, k))).collect();
    goals.sort_by_key(|g| g.0 as u8);
    let mut b = Builder { us, goals, failed: HashSet::new(), nodes: 0, budget, path: Vec::new() };
    if b.h(board) > pos.moves_left() {
        return None;
    }
    if b.dfs(pos, pos.moves_left()) {
        Some(b.path)
    } else {
        None
    }
}
