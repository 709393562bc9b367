//! Static evaluation: tapered middlegame/endgame sum of linear terms, plus one
//! non-linear king-safety term.
//!
//! Terms: material, file-symmetric piece-square tables, mobility, king safety
//! (shelter, storm, attacks on the king zone binned by the number of attackers, safe
//! checks, weak zone squares, and the quadratic danger of [`safety_score`]), pawn
//! structure (passed, isolated, doubled, backward, connected, islands; cached by pawn
//! key), passed pawns' free and safe paths and king distances, king distance to the
//! pawns, bishop pair, bad bishop, minor behind a pawn, outposts, rooks on open files
//! and on the seventh, space, threats (by pawns, pawn pushes, minors, rooks), weak and
//! hanging pieces, and a known-draw / drawish-material scale. The result is from the
//! side to move's view.
//!
//! Every linear term is `weight * count`, and the counts can be recorded through a
//! [`Trace`], which is how the Texel tuner fits the weights; king-safety units are
//! traced per king and the tuner differentiates through [`safety_score`].

mod bishop_and_pawn;
pub mod endgame;
pub mod king;
pub mod kpk;
pub mod layout;
pub mod masks;
pub mod params;
pub mod pawns;

use crate::nnue::Network;
use bastion_core::attacks;
use bastion_core::{Bitboard, Color, Position, Rank, Role};
use layout::*;
pub use pawns::PawnCache;

/// Receives the coefficient of each weight (for tuning).
pub trait Trace {
    /// Weight `idx` counted `n` times for `color`.
    fn add(&mut self, idx: usize, color: Color, n: i32);
    /// King-safety weight `idx` counted `n` times in the danger to `color`'s king (these
    /// enter the evaluation through [`safety_score`], not linearly).
    fn add_safety(&mut self, _idx: usize, _color: Color, _n: i32) {}
}

/// Divisor of the squared middlegame king-safety units.
pub const SAFETY_MG_DIV: i32 = 720;
/// Divisor of the endgame king-safety units.
pub const SAFETY_EG_DIV: i32 = 20;

/// What king danger of `units` (middlegame, endgame) costs its side: quadratic in the
/// middlegame, because attacks by several pieces are worth far more than the sum of single
/// attacks, and linear in the endgame.
#[inline]
pub fn safety_score(units: S) -> S {
    let mg = units.0.clamp(0, 40_000);
    let eg = units.1.max(0);
    S(-(mg * mg / SAFETY_MG_DIV), -(eg / SAFETY_EG_DIV))
}

/// A trace that records nothing (the normal, fast path).
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _idx: usize, _color: Color, _n: i32) {}
}

/// Per-weight coefficients (white minus black) plus the tapering inputs of one position.
#[derive(Clone, Debug, Default)]
pub struct Coefficients {
    /// Sparse (index, white-minus-black count) list.
    pub terms: Vec<(u16, i16)>,
    /// Game phase 0 (bare kings) ..= 24 (all pieces).
    pub phase: i32,
    /// Endgame scale 0..=64.
    pub scale: i32,
    /// King-safety units of each colour's king (white, black), as sparse (index, count) lists.
    pub safety: [Vec<(u16, i16)>; 2],
    dense: Vec<i32>,
}

impl Trace for Coefficients {
    fn add(&mut self, idx: usize, color: Color, n: i32) {
        if self.dense.is_empty() {
            self.dense = vec![0; NUM_PARAMS];
        }
        self.dense[idx] += color.sign() * n;
    }

    fn add_safety(&mut self, idx: usize, color: Color, n: i32) {
        self.safety[color.index()].push((idx as u16, n as i16));
    }
}

impl Coefficients {
    fn finish(&mut self) {
        self.terms =
            self.dense.iter().enumerate().filter(|(_, &v)| v != 0).map(|(i, &v)| (i as u16, v as i16)).collect();
        self.dense = Vec::new();
    }

    /// The white-minus-black middlegame/endgame sum these coefficients give with weights `w`
    /// (before tapering and scaling).
    pub fn score(&self, w: &[S]) -> S {
        let mut s = S(0, 0);
        for &(i, n) in &self.terms {
            s += w[i as usize] * n as i32;
        }
        for (ci, sign) in [(0, 1), (1, -1)] {
            if self.safety[ci].is_empty() {
                continue;
            }
            let mut units = S(0, 0);
            for &(i, n) in &self.safety[ci] {
                units += w[i as usize] * n as i32;
            }
            s += safety_score(units) * sign;
        }
        s
    }
}

/// Maximum game phase.
pub const MAX_PHASE: i32 = 24;

/// Game phase from non-pawn material: minor 1, rook 2, queen 4.
pub fn phase(pos: &Position) -> i32 {
    let n = pos.role_bb(Role::Knight).count() + pos.role_bb(Role::Bishop).count();
    let r = pos.role_bb(Role::Rook).count();
    let q = pos.role_bb(Role::Queen).count();
    ((n + 2 * r + 4 * q) as i32).min(MAX_PHASE)
}

/// Evaluates `pos` from the side to move's view with the engine's weights.
#[inline]
pub fn evaluate(pos: &Position, cache: &mut PawnCache) -> i32 {
    evaluate_with(pos, &params::WEIGHTS, Some(cache), &mut NoTrace, None)
}

/// Like [`evaluate`], but returns early with a material/PST/pawn estimate when that is
/// more than `margin` outside `(alpha, beta)` (lazy evaluation).
#[inline]
pub fn evaluate_lazy(pos: &Position, cache: &mut PawnCache, alpha: i32, beta: i32, margin: i32) -> i32 {
    evaluate_with(pos, &params::WEIGHTS, Some(cache), &mut NoTrace, Some((alpha, beta, margin)))
}

/// The static evaluation for the side to move when a network may be loaded:
/// `network(net)` gives the network's score, used except where [`prefers_hand_written`];
/// the material scale of [`scale_factor`] is applied to it where it says the material is
/// drawn or nearly so (scale below 32): the network learns typical positions and does not
/// know these rare draws.
#[inline]
pub fn evaluate_by(
    pos: &Position,
    net: Option<&Network>,
    cache: &mut PawnCache,
    network: impl FnOnce(&Network) -> i32,
) -> i32 {
    match net {
        Some(n) if !prefers_hand_written(pos) => {
            let v = network(n);
            // No endgame rule applies here (else `prefers_hand_written`): only material can scale.
            let white = if pos.side_to_move() == Color::White { v } else { -v };
            let strong = if white >= 0 { Color::White } else { Color::Black };
            let s = material_scale(pos, strong);
            if s < 32 {
                v * s / 64
            } else {
                v
            }
        }
        _ => evaluate(pos, cache),
    }
}

/// The mop-up share (side to move's view) of what [`evaluate_by`] returns for `pos`, so
/// that the `MopUp` ablation switch can take it back: the hand-written evaluation adds
/// `endgame::mop_up`, the network does not.
pub fn mop_up_included(pos: &Position, net_loaded: bool) -> i32 {
    if net_loaded && !prefers_hand_written(pos) {
        return 0;
    }
    let white = endgame::mop_up(pos);
    if pos.side_to_move() == Color::White {
        white
    } else {
        -white
    }
}

/// Positions the hand-written evaluation judges even when a network is loaded: pawnless
/// endings of at most five men (it drives the bare king to the edge and knows which
/// material cannot win) and the endings its endgame rules recognise ([`endgame`]: KPK,
/// wrong rook pawn, rook v minor, frozen pawn chains, KQKP, KBPKB), which the fortress
/// detector's verdicts rest on.
#[inline]
pub fn prefers_hand_written(pos: &Position) -> bool {
    (pos.role_bb(Role::Pawn).is_empty() && pos.occupied().count() <= 5)
        || endgame::scale(pos, Color::White).is_some()
        || endgame::scale(pos, Color::Black).is_some()
}

/// The coefficients of every weight for `pos` (white's view), for the tuner.
pub fn coefficients(pos: &Position) -> Coefficients {
    let mut c = Coefficients::default();
    evaluate_with(pos, &params::WEIGHTS, None, &mut c, None);
    c.phase = phase(pos);
    c.scale = scale_factor(pos, 1);
    c.finish();
    c
}

fn non_pawn_units(pos: &Position, c: Color) -> i32 {
    3 * (pos.pieces(c, Role::Knight).count() + pos.pieces(c, Role::Bishop).count()) as i32
        + 5 * pos.pieces(c, Role::Rook).count() as i32
        + 9 * pos.pieces(c, Role::Queen).count() as i32
}

/// Endgame scale 0..=64 for drawish material, for the side ahead by `eg_sign`.
/// Endgame knowledge first ([`endgame`]: wrong rook pawn, rook v minor, frozen pawn
/// chains, KQKP, KBPKB), then material: K v K, K+minor v anything without pawns and
/// KNN v K scale to 0, a small edge without pawns to 12, opposite bishops to 32.
pub fn scale_factor(pos: &Position, eg: i32) -> i32 {
    let strong = if eg >= 0 { Color::White } else { Color::Black };
    endgame::scale(pos, strong).unwrap_or_else(|| material_scale(pos, strong))
}

/// The material part of [`scale_factor`] (no [`endgame`] rule applies).
fn material_scale(pos: &Position, strong: Color) -> i32 {
    let weak = !strong;
    if pos.pieces(strong, Role::Pawn).is_empty() {
        let s = non_pawn_units(pos, strong);
        let wk = non_pawn_units(pos, weak);
        if s <= 3 {
            return 0;
        }
        let only_knights = pos.pieces(strong, Role::Knight).count() == 2 && s == 6;
        if only_knights && wk == 0 && pos.pieces(weak, Role::Pawn).is_empty() {
            return 0;
        }
        if s - wk <= 3 {
            return 12;
        }
    }
    // Opposite-coloured bishops with nothing else but pawns.
    let wb = pos.pieces(Color::White, Role::Bishop);
    let bb = pos.pieces(Color::Black, Role::Bishop);
    if wb.count() == 1
        && bb.count() == 1
        && non_pawn_units(pos, Color::White) == 3
        && non_pawn_units(pos, Color::Black) == 3
    {
        let w_light = (wb & Bitboard::LIGHT).nonempty();
        let b_light = (bb & Bitboard::LIGHT).nonempty();
        if w_light != b_light {
            return 32;
        }
    }
    64
}

#[inline(always)]
fn pst_index(role: Role, sq: usize, c: Color) -> usize {
    let rel = if c == Color::White { sq } else { sq ^ 56 };
    let file = rel % 8;
    PST + role.index() * 32 + (rel / 8) * 4 + file.min(7 - file)
}

/// The general evaluator: weights `w`, optional pawn cache, a trace, and an optional lazy window.
pub fn evaluate_with<T: Trace>(
    pos: &Position,
    w: &[S; NUM_PARAMS],
    cache: Option<&mut PawnCache>,
    t: &mut T,
    lazy: Option<(i32, i32, i32)>,
) -> i32 {
    let stm = pos.side_to_move();
    let mut acc = [S(0, 0); 2];
    let occ = pos.occupied();

    // Material and piece-square tables.
    for c in Color::ALL {
        let ci = c.index();
        for role in Role::ALL {
            let bb = pos.pieces(c, role);
            if role != Role::King {
                let n = bb.count() as i32;
                if n != 0 {
                    acc[ci] += w[MATERIAL + role.index()] * n;
                    t.add(MATERIAL + role.index(), c, n);
                }
            }
            for sq in bb {
                let i = pst_index(role, sq.index(), c);
                acc[ci] += w[i];
                t.add(i, c, 1);
            }
        }
    }
    let pawn_entry = match cache {
        Some(cache) => cache.get(pos, w),
        None => pawns::compute(pos, w, t),
    };
    let mut total = acc[0] - acc[1] + pawn_entry.score;
    let ph = phase(pos);

    if let Some((alpha, beta, margin)) = lazy {
        let est = taper(total, ph, scale_factor(pos, total.1));
        let est = if stm == Color::White { est } else { -est };
        if est - margin >= beta || est + margin <= alpha {
            return est;
        }
    }

    let mut acc = [S(0, 0); 2];
    // Attack maps, built in the piece loop.
    let pawn_att = [
        pawns::pawn_attacks(pos.pieces(Color::White, Role::Pawn).0, Color::White),
        pawns::pawn_attacks(pos.pieces(Color::Black, Role::Pawn).0, Color::Black),
    ];
    let mut attacked = [pawn_att[0], pawn_att[1]];
    let mut minor_att = [0u64; 2];
    let mut role_att = [[0u64; 6]; 2];
    let mut zone_attackers = [0i32; 2]; // attackers of colour c's king zone
    let mut zone_squares = [[0i32; 4]; 2]; // king-zone squares colour c's pieces attack, by role
    let kings = [pos.king(Color::White), pos.king(Color::Black)];
    let zones = [
        attacks::king_attacks(kings[0]).0 | (1 << kings[0].index()),
        attacks::king_attacks(kings[1]).0 | (1 << kings[1].index()),
    ];
    for c in Color::ALL {
        let ci = c.index();
        let them = (!c).index();
        let own_pawns = pos.pieces(c, Role::Pawn).0;
        let area = !(own_pawns | pawn_att[them] | (1u64 << kings[ci].index()));
        let mut add = |idx: usize, n: i32| {
            acc[ci] += w[idx] * n;
            t.add(idx, c, n);
        };
        for (role, mob_base, katt) in
            [(Role::Knight, MOB_N, 0), (Role::Bishop, MOB_B, 1), (Role::Rook, MOB_R, 2), (Role::Queen, MOB_Q, 3)]
        {
            for sq in pos.pieces(c, role) {
                let att = match role {
                    Role::Knight => attacks::knight_attacks(sq).0,
                    Role::Bishop => attacks::bishop_attacks(sq, occ ^ pos.pieces(c, Role::Queen)).0,
                    Role::Rook => {
                        attacks::rook_attacks(sq, occ ^ pos.pieces(c, Role::Queen) ^ pos.pieces(c, Role::Rook)).0
                    }
                    _ => attacks::queen_attacks(sq, occ).0,
                };
                attacked[ci] |= att;
                role_att[ci][role.index()] |= att;
                add(mob_base + (att & area).count_ones() as usize, 1);
                let z = att & zones[them];
                if z != 0 {
                    zone_attackers[them] += 1;
                    zone_squares[ci][katt] += z.count_ones() as i32;
                }
                let rel_rank = sq.rank().relative(c).index();
                match role {
                    Role::Knight | Role::Bishop => {
                        minor_att[ci] |= att;
                        let s = sq.index();
                        let sq_bb = Bitboard::from_square(sq);
                        let ahead = if c == Color::White { sq_bb.north() } else { sq_bb.south() };
                        if (pos.role_bb(Role::Pawn) & ahead).nonempty() {
                            add(MINOR_BEHIND_PAWN, 1);
                        }
                        if role == Role::Bishop {
                            let colour =
                                if Bitboard::LIGHT.0 & (1 << s) != 0 { Bitboard::LIGHT.0 } else { Bitboard::DARK.0 };
                            add(BAD_BISHOP, (own_pawns & colour).count_ones() as i32);
                        }
                        if (3..=5).contains(&rel_rank)
                            && pawn_att[ci] & (1 << s) != 0
                            && masks::ATTACK_SPAN[ci][s] & pos.pieces(!c, Role::Pawn).0 == 0
                        {
                            add(OUTPOST, 1);
                        }
                    }
                    Role::Rook => {
                        let fm = masks::file_mask(sq.file().index());
                        if fm & pos.role_bb(Role::Pawn).0 == 0 {
                            add(ROOK_OPEN, 1);
                        } else if fm & own_pawns == 0 {
                            add(ROOK_SEMI_OPEN, 1);
                        }
                        if rel_rank == 6
                            && ((pos.pieces(!c, Role::Pawn) & Bitboard::rank(sq.rank())).nonempty()
                                || Bitboard::rank(Rank::EIGHTH.relative(c)).contains(kings[them]))
                        {
                            add(ROOK_SEVENTH, 1);
                        }
                    }
                    _ => {}
                }
            }
        }
        if pos.pieces(c, Role::Bishop).count() >= 2 {
            add(BISHOP_PAIR, 1);
        }
        attacked[ci] |= attacks::king_attacks(kings[ci]).0;
    }

    for c in Color::ALL {
        let ci = c.index();
        let them = (!c).index();
        let mut s = S(0, 0);
        king::shelter(pos, c, w, &mut s, t);
        acc[ci] += s;
        let mut add = |idx: usize, n: i32| {
            if n != 0 {
                acc[ci] += w[idx] * n;
                t.add(idx, c, n);
            }
        };
        // Our attacks on the enemy king zone, weighted by how many pieces take part.
        if zone_attackers[them] > 0 {
            let bin = zone_attackers[them].min(4) as usize - 1;
            for (katt, &n) in zone_squares[ci].iter().enumerate() {
                add(KING_ATTACK + katt * 4 + bin, n);
            }
        }
        // King danger from the enemy's pieces.
        add(KING_ATTACKERS + zone_attackers[ci].min(7) as usize, 1);
        let enemy_queens = pos.pieces(!c, Role::Queen).count() as i32;
        let ksq = kings[ci];
        let safe = !attacked[ci] & !pos.color_bb(!c).0;
        let bishop_checks = attacks::bishop_attacks(ksq, occ).0;
        let rook_checks = attacks::rook_attacks(ksq, occ).0;
        let safe_checks = [
            (attacks::knight_attacks(ksq).0 & role_att[them][1] & safe).count_ones() as i32,
            (bishop_checks & role_att[them][2] & safe).count_ones() as i32,
            (rook_checks & role_att[them][3] & safe).count_ones() as i32,
            ((bishop_checks | rook_checks) & role_att[them][4] & safe).count_ones() as i32,
        ];
        for (k, &n) in safe_checks.iter().enumerate() {
            add(SAFE_CHECK + k, n);
        }
        // Threats against our pieces.
        let pieces = (pos.color_bb(c) - pos.role_bb(Role::Pawn) - pos.role_bb(Role::King)).0;
        add(THREAT_BY_PAWN, (pieces & pawn_att[them]).count_ones() as i32);
        let heavy = (pos.pieces(c, Role::Rook) | pos.pieces(c, Role::Queen)).0;
        add(THREAT_BY_MINOR, (heavy & minor_att[them]).count_ones() as i32);
        add(HANGING, (pieces & attacked[them] & !attacked[ci]).count_ones() as i32);
        let minors = (pos.pieces(c, Role::Knight) | pos.pieces(c, Role::Bishop)).0;
        add(THREAT_MINOR_ON_MINOR, (minors & minor_att[them] & !pawn_att[ci]).count_ones() as i32);
        add(THREAT_ROOK_ON_QUEEN, (pos.pieces(c, Role::Queen).0 & role_att[them][3]).count_ones() as i32);
        let own_pawns = pos.pieces(c, Role::Pawn).0;
        add(WEAK_PAWN, (own_pawns & attacked[them] & !attacked[ci]).count_ones() as i32);
        // Squares enemy pawns can safely push to, and the pieces they would then hit.
        let push = |b: Bitboard| (if c == Color::White { b.south() } else { b.north() }) - occ;
        let push1 = push(pos.pieces(!c, Role::Pawn));
        let push2 = push(push1 & Bitboard::rank(Rank::ALL[5].relative(c)));
        let safe_push = (push1 | push2).0 & !pawn_att[ci] & (attacked[them] | !attacked[ci]);
        add(PAWN_PUSH_THREAT, (pawns::pawn_attacks(safe_push, !c) & pieces).count_ones() as i32);
        // Endgame king activity: distance to the nearest pawn.
        let all_pawns = pos.role_bb(Role::Pawn);
        if all_pawns.nonempty() {
            let d = all_pawns.into_iter().map(|p| p.distance(kings[ci])).min().unwrap_or(0);
            add(KING_PAWN_DIST + d.min(7) as usize, 1);
        }
        let defenders = pawn_att[ci] | role_att[ci][1] | role_att[ci][2] | role_att[ci][3];
        let weak_zone = (zones[ci] & attacked[them] & !defenders).count_ones() as i32;
        add(KING_WEAK_ZONE, weak_zone);
        // Space: safe central squares on our side, counted twice behind our pawns.
        const CENTRE_FILES: u64 = 0x3C3C_3C3C_3C3C_3C3C;
        let (home, behind) = if c == Color::White {
            (0x0000_0000_FFFF_FF00u64, (own_pawns >> 8) | (own_pawns >> 16) | (own_pawns >> 24))
        } else {
            (0x00FF_FFFF_0000_0000u64, (own_pawns << 8) | (own_pawns << 16) | (own_pawns << 24))
        };
        let space = CENTRE_FILES & home & !own_pawns & !pawn_att[them];
        add(SPACE, (space.count_ones() + (space & behind).count_ones()) as i32);
        // Passed pawns: the parts that depend on pieces.
        let mut passed = pawn_entry.passed[ci];
        while passed != 0 {
            let sq = passed.trailing_zeros() as usize;
            passed &= passed - 1;
            let rel_rank = if c == Color::White { sq / 8 } else { 7 - sq / 8 };
            let stop = if c == Color::White { sq + 8 } else { sq - 8 };
            if occ.0 & (1 << stop) == 0 {
                add(PASSED_FREE + rel_rank, 1);
            }
            if masks::FORWARD_FILE[ci][sq] & (occ.0 | attacked[them]) == 0 {
                add(PASSED_SAFE_PATH + rel_rank, 1);
            }
            let stop_sq = bastion_core::Square::from_index(stop);
            add(PASSED_OWN_KING + stop_sq.distance(kings[ci]).min(7) as usize, 1);
            add(PASSED_ENEMY_KING + stop_sq.distance(kings[them]).min(7) as usize, 1);
        }
        // Non-linear king danger, once an attack is under way (a queen, or two attackers).
        if zone_attackers[ci] > 1 - enemy_queens.min(1) {
            let mut units = S(0, 0);
            let z = &zone_squares[them];
            let features = [
                (SAFETY_ZONE, z[0]),
                (SAFETY_ZONE + 1, z[1]),
                (SAFETY_ZONE + 2, z[2]),
                (SAFETY_ZONE + 3, z[3]),
                (SAFETY_ATTACKERS, zone_attackers[ci]),
                (SAFETY_WEAK, weak_zone),
                (SAFETY_CHECK, safe_checks[0]),
                (SAFETY_CHECK + 1, safe_checks[1]),
                (SAFETY_CHECK + 2, safe_checks[2]),
                (SAFETY_CHECK + 3, safe_checks[3]),
                (SAFETY_NO_QUEEN, (enemy_queens == 0) as i32),
                (SAFETY_BIAS, 1),
            ];
            for (idx, n) in features {
                if n != 0 {
                    units += w[idx] * n;
                    t.add_safety(idx, c, n);
                }
            }
            acc[ci] += safety_score(units);
        }
    }
    total += acc[0] - acc[1];
    // Tempo for the side to move.
    let tempo = w[TEMPO];
    t.add(TEMPO, stm, 1);
    total += if stm == Color::White { tempo } else { S(-tempo.0, -tempo.1) };
    let scale = scale_factor(pos, total.1);
    // The mop-up term is fixed and stays outside the tuned weights: it fires only against a
    // bare king, where material alone decides and there is nothing for the tuner to fit.
    let v = taper(total, ph, scale) + endgame::mop_up(pos);
    if stm == Color::White {
        v
    } else {
        -v
    }
}

/// Blends middlegame and endgame by `phase`, then applies the endgame `scale`. Scales
/// below 64 only come from endings, where they apply to the whole value: the small
/// middlegame share must not survive a known draw.
#[inline(always)]
fn taper(s: S, phase: i32, scale: i32) -> i32 {
    if scale == 64 {
        return (s.0 * phase + s.1 * (MAX_PHASE - phase)) / MAX_PHASE;
    }
    (s.0 * phase + s.1 * (MAX_PHASE - phase)) * scale / (64 * MAX_PHASE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mop_up_included_is_the_mop_up_term_of_the_hand_written_evaluation() {
        // Black to move in K+R v K: the term is White's bonus, negated.
        let krk = Position::from_fen("8/8/8/4k3/8/8/8/R3K3 b - - 0 1").unwrap();
        let term = endgame::mop_up(&krk);
        assert!(term > 0);
        assert_eq!(mop_up_included(&krk, false), -term);
        // Pawnless endings of five men are judged by hand even with a network loaded.
        assert_eq!(mop_up_included(&krk, true), -term);
        // With a network, other positions get none of it.
        assert_eq!(mop_up_included(&Position::startpos(), true), 0);
    }

    /// With a network loaded, recognised endings and small pawnless endings keep the
    /// hand-written evaluation; other positions get the network's score, scaled only
    /// where the material is drawn.
    #[test]
    fn network_is_used_outside_the_known_endings() {
        let net = Network::builtin();
        let by = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let mut used = false;
            let v = evaluate_by(&pos, Some(&net), &mut PawnCache::new(), |n| {
                used = true;
                n.evaluate(&pos)
            });
            (used, v, evaluate(&pos, &mut PawnCache::new()))
        };
        for fen in [
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", // KPK
            "8/8/8/3nk3/8/8/8/R3K3 w - - 0 1", // KRKN
            "8/8/8/2k5/8/8/8/QB2K3 w - - 0 1", // pawnless, 4 men
            "7k/8/6K1/7P/8/8/8/8 w - - 0 1",   // wrong rook pawn (KPK too)
        ] {
            let (used, v, hand) = by(fen);
            assert!(!used && v == hand, "{fen}");
        }
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 1",
        ] {
            let (used, v, _) = by(fen);
            let pos = Position::from_fen(fen).unwrap();
            assert!(used && v == net.evaluate(&pos), "{fen}");
        }
        // KB v K: the hand-written evaluation's dead draw.
        let (used, v, _) = by("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1");
        assert!(!used && v == 0, "{v}");
    }

    fn mirror_files(pos: &Position) -> Position {
        // Rebuild the FEN with each rank reversed (castling rights dropped).
        let fen = pos.fen();
        let parts: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = parts[0]
            .split('/')
            .map(|r| {
                let mut out = String::new();
                for ch in r.chars().rev() {
                    out.push(ch);
                }
                out
            })
            .collect();
        let ep = if parts[3] == "-" {
            "-".to_string()
        } else {
            let f = (b'a' + (b'h' - parts[3].as_bytes()[0])) as char;
            format!("{f}{}", &parts[3][1..])
        };
        Position::from_fen(&format!("{} {} - {} 0 1", board.join("/"), parts[1], ep)).unwrap()
    }

    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b - - 0 9",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "8/8/4k3/8/1B6/8/8/4K3 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
        // Endings with knowledge-based scales (wrong rook pawn, rook v minor, KQKP,
        // KPK, frozen chain), so the walks below reach them and their neighbours.
        "7k/8/5K2/7P/8/8/2B5/8 w - - 0 1",
        "7k/8/5K2/8/8/8/6b1/R7 w - - 0 1",
        "8/2R5/8/8/7k/3K4/8/4n3 w - - 0 1",
        "6K1/8/8/8/8/8/1kp5/7Q w - - 0 1",
        "8/8/8/1k6/8/8/K5P1/8 w - - 0 1",
        "4k3/8/2p1p3/1pPpPp1p/pP1P1PpP/P5P1/8/2B1K3 w - - 0 1",
    ];

    #[test]
    fn colour_flip_and_file_mirror_symmetry() {
        let mut cache = PawnCache::new();
        let mut positions = Vec::new();
        for f in FENS {
            let p = Position::from_fen(f).unwrap();
            positions.push(p.clone());
            // Walk a few plies of each position to get many varied positions.
            let mut cur = p;
            for i in 0..30 {
                let moves = cur.legal_moves();
                if moves.is_empty() {
                    break;
                }
                cur = cur.play(moves[(i * 7 + 3) % moves.len()]);
                positions.push(cur.clone());
            }
        }
        assert!(positions.len() > 150);
        for p in &positions {
            let e = evaluate(p, &mut cache);
            let m = p.mirrored();
            assert_eq!(e, evaluate(&m, &mut cache), "colour flip changed eval of {}", p.fen());
            let f = mirror_files(p);
            let mut fresh = PawnCache::new();
            assert_eq!(e, evaluate(&f, &mut fresh), "file mirror changed eval of {}", p.fen());
        }
    }

    #[test]
    fn known_draws_scale_to_zero_and_material_counts() {
        let mut cache = PawnCache::new();
        for f in [
            "8/8/4k3/8/8/8/8/4K3 w - - 0 1",
            "8/8/4k3/8/2N5/8/8/4K3 w - - 0 1",
            "8/8/4k3/8/1B6/8/8/4K3 b - - 0 1",
            "8/8/4k3/8/NN6/8/8/4K3 w - - 0 1",
        ] {
            let p = Position::from_fen(f).unwrap();
            assert_eq!(evaluate(&p, &mut cache), 0, "{f}");
        }
        // Wrong-coloured bishop with a rook pawn: drawn when the king holds the corner,
        // not when the bishop controls the queening square or the king is far away.
        for (f, drawn) in [
            ("7k/8/6K1/7P/8/8/4B3/8 w - - 0 1", true),
            ("k7/8/8/P7/8/8/8/2B1K3 b - - 0 1", true),
            ("k7/8/8/P7/8/8/8/1B2K3 b - - 0 1", false),
            ("8/8/8/k6P/8/8/4B3/6K1 w - - 0 1", false),
            ("8/8/8/8/p7/8/2k5/K2b4 w - - 0 1", true),
            ("7k/8/5K2/7P/8/8/8/8 w - - 0 1", true),
            // KPK is exact (bitbase): the king two squares from the corner gets there.
            ("8/8/5k2/8/8/8/7P/6K1 w - - 0 1", true),
            ("8/8/8/8/k7/8/7P/6K1 w - - 0 1", false),
        ] {
            let p = Position::from_fen(f).unwrap();
            assert_eq!(evaluate(&p, &mut cache) == 0, drawn, "{f}");
        }
        // Queen against a bishop pawn on the seventh with its king beside it: drawish;
        // against a centre pawn the queen wins and keeps its value.
        let c_pawn = Position::from_fen("6Q1/8/8/8/8/8/2pk4/7K w - - 0 1").unwrap();
        assert!(evaluate(&c_pawn, &mut cache).abs() < 100);
        let d_pawn = Position::from_fen("6Q1/8/8/8/8/8/3pk3/7K w - - 0 1").unwrap();
        assert!(evaluate(&d_pawn, &mut cache) > 500);
        let up_queen = Position::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up_queen, &mut cache) > 600);
        let down_queen = Position::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&down_queen, &mut cache) < -600);
    }

    #[test]
    fn trace_reproduces_evaluation() {
        let mut cache = PawnCache::new();
        for f in FENS {
            let p = Position::from_fen(f).unwrap();
            let c = coefficients(&p);
            let w = &params::WEIGHTS;
            let s = c.score(w);
            let scale = scale_factor(&p, s.1);
            let white = taper(s, c.phase, scale) + endgame::mop_up(&p);
            let e = evaluate(&p, &mut cache);
            let expect = if p.side_to_move() == Color::White { e } else { -e };
            assert!((white - expect).abs() <= 1, "{f}: trace {white} vs eval {expect}");
        }
    }
}
