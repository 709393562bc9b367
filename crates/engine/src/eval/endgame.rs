//! Endgame knowledge: configurations where the linear evaluation is known to be
//! wrong, expressed as scale factors (0 = dead draw, 64 = trust the evaluation).
//!
//! Every rule is a pure function of the position (and of which side is ahead), and
//! symmetric under colour flip and file mirror, so the evaluation keeps both symmetries.
//! The rules are deliberately conservative: when a condition cannot be decided cheaply
//! the rule does not fire and the normal evaluation stands.

use bastion_core::{Bitboard, Color, File, Position, Rank, Role, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Squares a king on any square of `b` attacks, plus `b` itself.
#[inline]
fn king_spread(b: u64) -> u64 {
    let row = b | ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H);
    row | (row << 8) | (row >> 8)
}

/// Every square a king starting on `from` can walk to through `allowed`.
fn king_region(from: Square, allowed: u64) -> u64 {
    let mut region = 1u64 << from.index();
    loop {
        let next = (king_spread(region) & allowed) | region;
        if next == region {
            return region;
        }
        region = next;
    }
}

/// Squares attacked by the pawns of `color` in `pawns`.
#[inline]
fn pawn_attack_set(pawns: u64, color: Color) -> u64 {
    match color {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

/// Distance of `sq` to the nearest board edge (0 on the edge).
#[inline]
fn edge_distance(sq: Square) -> u32 {
    let f = sq.file().index() as u32;
    let r = sq.rank().index() as u32;
    f.min(7 - f).min(r).min(7 - r)
}

/// The two corners whose colour is light (`light`) or dark.
fn corners(light: bool) -> impl Iterator<Item = Square> {
    [Square::A1, Square::H1, Square::A8, Square::H8].into_iter().filter(move |c| c.is_light() == light)
}

/// Distance of `sq` to the nearest corner whose colour is light (`light`) or dark.
fn corner_distance(sq: Square, light: bool) -> u32 {
    corners(light).map(|c| sq.distance(c)).min().unwrap_or(8)
}

fn non_pawn_units(pos: &Position, c: Color) -> i32 {
    3 * (pos.pieces(c, Role::Knight).count() + pos.pieces(c, Role::Bishop).count()) as i32
        + 5 * pos.pieces(c, Role::Rook).count() as i32
        + 9 * pos.pieces(c, Role::Queen).count() as i32
}

/// The knowledge-based scale for `strong` (the side the evaluation favours), or
/// `None` when no rule applies.
pub(crate) fn scale(pos: &Position, strong: Color) -> Option<i32> {
    if frozen_pawn_structure(pos) {
        return Some(0);
    }
    if let Some(win) = super::kpk::probe(pos, strong) {
        // Exact: a drawn KPK is a dead draw; a won one keeps the normal evaluation.
        return if win { None } else { Some(0) };
    }
    if rook_pawn_draw(pos, strong) {
        return Some(0);
    }
    if let Some(s) = rook_vs_minor(pos, strong) {
        return Some(s);
    }
    if queen_against_seventh_rank_pawn(pos, strong) {
        return Some(0);
    }
    super::bishop_and_pawn::scale(pos)
}

/// Manhattan distance of `sq` from the four centre squares (0 there, 6 in a corner).
#[inline]
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

/// Manhattan distance between two squares.
#[inline]
fn manhattan(a: Square, b: Square) -> i32 {
    (a.file().index() as i32 - b.file().index() as i32).abs()
        + (a.rank().index() as i32 - b.rank().index() as i32).abs()
}

/// Centipawns, White's view, that drive a bare king towards the edge and a corner (with
/// bishop and knight only: a corner of the bishop's colour) and bring the other king near.
/// Zero unless one side has only its king and the other has a queen, a rook, two bishops
/// or bishop and knight.
///
/// Why: the linear evaluation is flat there, so nothing guides a shallow search towards the
/// mate. At 2,000 nodes a move the engine mated with K+R v K in only 12 of 40 games from
/// random positions, and 14 of 20 at 50,000 nodes with a cleared table; the
/// self-play data recorded the missed wins as draws.
pub(crate) fn mop_up(pos: &Position) -> i32 {
    for strong in Color::ALL {
        let weak = !strong;
        if pos.color_bb(weak).count() != 1 {
            continue;
        }
        let (q, r) = (pos.count(strong, Role::Queen), pos.count(strong, Role::Rook));
        let (b, n) = (pos.pieces(strong, Role::Bishop), pos.count(strong, Role::Knight));
        let two_bishops = (b & Bitboard::LIGHT).nonempty() && (b & Bitboard::DARK).nonempty();
        let bishop_knight = q + r == 0 && b.count() == 1 && n == 1;
        if q + r == 0 && !two_bishops && !bishop_knight {
            continue;
        }
        let (wk, sk) = (pos.king(weak), pos.king(strong));
        let push = if bishop_knight {
            corners((b & Bitboard::LIGHT).nonempty()).map(|c| 15 * (14 - manhattan(wk, c))).max().unwrap_or(0)
        } else {
            20 * centre_distance(wk)
        };
        let bonus = push + 10 * (7 - wk.distance(sk) as i32);
        return if strong == Color::White { bonus } else { -bonus };
    }
    0
}

/// Rook pawns (all on one edge file), alone or with one bishop that does not control
/// the queening corner, against a bare king: a draw when the defending king stands
/// next to the corner, or can get there before the stronger king can keep it out and
/// before the pawn can take the squares in front of the corner away from it.
///
/// The race counts tempo. The defending king walks towards the corner on squares of
/// the corner's colour (such a path always exists and the wrong bishop never controls
/// it); at each step the stronger king must still be farther from the corner than the
/// square the defender steps to, otherwise it could contest that square.
pub(crate) fn rook_pawn_draw(pos: &Position, strong: Color) -> bool {
    let weak = !strong;
    let bishops = pos.pieces(strong, Role::Bishop);
    let pawns = pos.pieces(strong, Role::Pawn);
    if pawns.is_empty()
        || bishops.count() > 1
        || non_pawn_units(pos, strong) != 3 * bishops.count() as i32
        || pos.color_bb(weak).count() != 1
    {
        return false;
    }
    let file = if pawns.0 & !FILE_A == 0 {
        File::A
    } else if pawns.0 & !FILE_H == 0 {
        File::H
    } else {
        return false;
    };
    let corner = Square::from_coords(file, Rank::EIGHTH.relative(strong));
    if bishops.first().is_some_and(|b| b.is_light() == corner.is_light()) {
        return false;
    }
    let dk = pos.king(weak).distance(corner);
    if dk <= 1 {
        return true;
    }
    // The leading pawn: most advanced from the stronger side's view.
    let lead_rank = pawns.into_iter().map(|p| p.rank().relative(strong).index()).max().unwrap_or(0);
    if lead_rank >= 5 {
        // On the sixth or seventh the pawn itself controls squares next to the corner.
        return false;
    }
    // Pawn moves until it stands on the sixth rank (a double step saves one).
    let to_sixth = (5 - lead_rank as i32) - i32::from(lead_rank == 1);
    let ds = pos.king(strong).distance(corner) as i32;
    let dk = dk as i32;
    let weak_to_move = pos.side_to_move() == weak;
    // Moves the defender needs to stand next to the corner.
    let need = dk - 1;
    if weak_to_move {
        dk < ds && need <= to_sixth
    } else {
        dk + 1 < ds && need < to_sixth
    }
}

/// Rook against a lone minor piece without pawns: a theoretical draw unless the
/// defending king is caught on the edge near a corner of the bishop's colour, or the
/// knight is cut off from its king. Returns the scale.
pub(crate) fn rook_vs_minor(pos: &Position, strong: Color) -> Option<i32> {
    let weak = !strong;
    if pos.role_bb(Role::Pawn).nonempty()
        || pos.color_bb(strong).count() != 2
        || pos.pieces(strong, Role::Rook).count() != 1
        || pos.color_bb(weak).count() != 2
    {
        return None;
    }
    let wk = pos.king(weak);
    if let Some(b) = pos.pieces(weak, Role::Bishop).first() {
        // The defender is safe in a corner the bishop does not cover, lost in one it does.
        let safe = corner_distance(wk, !b.is_light());
        let wrong = corner_distance(wk, b.is_light());
        let s = if safe <= 1 {
            4
        } else if edge_distance(wk) == 0 && wrong <= 1 {
            32
        } else if edge_distance(wk) == 0 && wrong <= 2 {
            20
        } else if edge_distance(wk) == 0 {
            12
        } else {
            8
        };
        return Some(s);
    }
    if let Some(n) = pos.pieces(weak, Role::Knight).first() {
        // A knight far from its king gets cut off and lost; a king on the edge or in a
        // corner gets mated. Near its king, in the open, the knight holds.
        let mut s = match wk.distance(n) {
            0..=1 => 6,
            2 => 12,
            3 => 26,
            _ => 40,
        };
        if edge_distance(wk) == 0 {
            s += 8;
            if corner_distance(wk, true).min(corner_distance(wk, false)) <= 1 {
                s += 8;
            }
        }
        return Some(s);
    }
    None
}

/// Queen against a rook or bishop pawn on its seventh rank with its king beside it
/// (or, for a bishop pawn, in the corner next to it, where taking the pawn stalemates):
/// the stalemate defence usually holds unless the stronger king is near, which the
/// search must then find (as in Stockfish's KQKP rule).
pub(crate) fn queen_against_seventh_rank_pawn(pos: &Position, strong: Color) -> bool {
    let weak = !strong;
    let pawn = pos.pieces(weak, Role::Pawn);
    if pos.pieces(strong, Role::Queen).count() != 1
        || non_pawn_units(pos, strong) != 9
        || pos.pieces(strong, Role::Pawn).nonempty()
        || non_pawn_units(pos, weak) != 0
        || pawn.count() != 1
    {
        return false;
    }
    let p = pawn.lsb();
    if p.rank().relative(weak).index() != 6 || !matches!(p.file().index(), 0 | 2 | 5 | 7) {
        return false;
    }
    let k = pos.king(weak);
    if k.distance(p) == 1 {
        return true;
    }
    // c-pawn with the king on a1 (f-pawn: h1), relative to the defender.
    let corner_file = match p.file().index() {
        2 => File::A,
        5 => File::H,
        _ => return false,
    };
    k == Square::from_coords(corner_file, Rank::EIGHTH.relative(weak))
}

/// A pawn structure that can never change, with kings that can never reach an enemy
/// pawn or each other: a dead draw whatever the material.
///
/// Conditions (all required): every pawn is rammed head-on by an enemy pawn; no pawn
/// can capture; the only pieces are bishops, each on the colour that none of the enemy
/// pawns stands on (so no bishop can ever take a pawn or be taken by one, and no pawn
/// capture can ever appear); each king's reachable region (squares not holding a pawn
/// and not attacked by an enemy pawn, ignoring the other pieces, which only shrinks it)
/// touches no enemy pawn and does not touch the other king's region. Then no pawn ever
/// moves and nothing is ever captured.
pub(crate) fn frozen_pawn_structure(pos: &Position) -> bool {
    let wp = pos.pieces(Color::White, Role::Pawn).0;
    let bp = pos.pieces(Color::Black, Role::Pawn).0;
    if wp == 0 || wp << 8 != bp {
        return false;
    }
    if (pos.role_bb(Role::Knight) | pos.role_bb(Role::Rook) | pos.role_bb(Role::Queen)).nonempty() {
        return false;
    }
    let w_att = pawn_attack_set(wp, Color::White);
    let b_att = pawn_attack_set(bp, Color::Black);
    if w_att & bp != 0 || b_att & wp != 0 {
        return false;
    }
    for c in Color::ALL {
        let enemy_pawns = if c == Color::White { bp } else { wp };
        for b in pos.pieces(c, Role::Bishop) {
            let same_colour = if b.is_light() { Bitboard::LIGHT.0 } else { Bitboard::DARK.0 };
            if enemy_pawns & same_colour != 0 {
                return false;
            }
        }
    }
    let pawns = wp | bp;
    let w_region = king_region(pos.king(Color::White), !pawns & !b_att);
    let b_region = king_region(pos.king(Color::Black), !pawns & !w_att);
    let w_reach = king_spread(w_region);
    let b_reach = king_spread(b_region);
    // Tiny regions could allow a mate by bishop alone; leave those to the search.
    w_reach & bp == 0
        && b_reach & wp == 0
        && w_reach & b_region == 0
        && w_region.count_ones() >= 4
        && b_region.count_ones() >= 4
}

#[cfg(test)]
mod tests {
    use super::super::{evaluate, PawnCache};
    use super::*;

    /// Static evaluation from White's view.
    fn white_eval(fen: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let v = evaluate(&pos, &mut PawnCache::new());
        if pos.side_to_move() == Color::White {
            v
        } else {
            -v
        }
    }

    /// The same verdict after a colour flip and after a file mirror.
    fn check_symmetric(fen: &str) {
        let pos = Position::from_fen(fen).unwrap();
        let v = evaluate(&pos, &mut PawnCache::new());
        assert_eq!(v, evaluate(&pos.mirrored(), &mut PawnCache::new()), "colour flip of {fen}");
        let pieces: Vec<_> =
            pos.occupied().into_iter().map(|s| (s.flip_horizontal(), pos.piece_at(s).unwrap())).collect();
        let m = Position::from_pieces(&pieces, pos.side_to_move()).unwrap();
        assert_eq!(v, evaluate(&m, &mut PawnCache::new()), "file mirror of {fen}");
    }

    #[test]
    fn mop_up_drives_the_bare_king_to_the_edge_and_keeps_both_symmetries() {
        // The rook side prefers the defending king on the edge, and its own king near it.
        let centre = white_eval("8/8/8/4k3/8/8/8/R6K w - - 0 1");
        let edge = white_eval("4k3/8/8/8/8/8/8/R6K w - - 0 1");
        let near = white_eval("4k3/8/4K3/8/8/8/8/R7 w - - 0 1");
        assert!(centre < edge && edge < near, "{centre} {edge} {near}");
        // Bishop and knight: the corner of the bishop's colour (c1, a1 and h8 are dark).
        let right = white_eval("7k/8/8/8/8/8/8/K1B1N3 w - - 0 1");
        let wrong = white_eval("k7/8/8/8/8/8/8/K1B1N3 w - - 0 1");
        assert!(right > wrong, "dark bishop: h8 {right}, a8 {wrong}");
        // Nothing to mate with, or a piece on each side: no term.
        let pos = Position::from_fen("8/8/8/4k3/8/8/8/N6K w - - 0 1").unwrap();
        assert_eq!(mop_up(&pos), 0);
        let pos = Position::from_fen("8/8/8/4k3/8/8/4n3/R6K w - - 0 1").unwrap();
        assert_eq!(mop_up(&pos), 0);
        for fen in [
            "8/8/8/4k3/8/8/8/R6K w - - 0 1",
            "8/8/2k5/8/8/8/8/Q6K b - - 0 1",
            "7k/8/8/8/8/8/8/K1B1N3 w - - 0 1",
            "8/1k6/8/8/8/8/8/2B1KB2 w - - 0 1",
        ] {
            check_symmetric(fen);
        }
    }

    #[test]
    fn kpk_bitbase_scales_draws_only() {
        // Defender in front with the opposition: dead draw.
        assert_eq!(white_eval("4k3/8/4P3/4K3/8/8/8/8 w - - 0 1"), 0);
        // The defender reaches the corner of the h-pawn in time (not next to it yet).
        assert_eq!(white_eval("8/8/5k2/8/8/8/7P/6K1 w - - 0 1"), 0);
        // King on the sixth in front of its pawn: won, full value.
        assert!(white_eval("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1") > 100);
        // The pawn outruns a far king.
        assert!(white_eval("8/8/8/8/k7/8/7P/6K1 w - - 0 1") > 50);
        for f in ["4k3/8/4P3/4K3/8/8/8/8 w - - 0 1", "4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"] {
            check_symmetric(f);
        }
    }

    #[test]
    fn wrong_bishop_rook_pawn_race() {
        // Bishop f1 is light, the h8 corner dark. The black king is two steps away and
        // the stronger king far: it gets there first (both sides to move).
        assert_eq!(white_eval("8/8/5k2/8/8/7P/8/3K1B2 w - - 0 1"), 0);
        assert_eq!(white_eval("8/8/4k3/8/8/7P/8/3K1B2 b - - 0 1"), 0);
        // Too far away: the pawn or the king gets there first.
        assert!(white_eval("k7/8/8/8/8/7P/8/3K1B2 w - - 0 1") > 200);
        // The stronger king stands between: no race rule.
        assert!(white_eval("8/8/4k3/6K1/7P/8/8/5B2 w - - 0 1") > 200);
        // Right-coloured bishop: never scaled.
        assert!(white_eval("8/8/5k2/8/8/7P/8/3KB3 w - - 0 1") > 200);
        // Pawn already on the sixth: it takes g7 from the king, so no race draw.
        assert!(white_eval("8/8/5k1P/8/3K4/8/8/5B2 w - - 0 1") > 200);
        for f in ["8/8/5k2/8/8/7P/8/3K1B2 w - - 0 1", "k7/8/8/8/8/7P/8/3K1B2 w - - 0 1"] {
            check_symmetric(f);
        }
    }

    #[test]
    fn rook_against_minor_piece() {
        // Rook v bishop, defender in the corner the bishop does not cover: drawish.
        let safe = white_eval("7k/8/5K2/8/8/8/6b1/R7 w - - 0 1");
        assert!((0..60).contains(&safe), "{safe}");
        // The same king in the bishop's corner, on the edge: winning chances kept (by the
        // rule's scale; the tuned base value of the ending is small, so no fixed margin).
        let safe_pos = Position::from_fen("7k/8/5K2/8/8/8/6b1/R7 w - - 0 1").unwrap();
        assert!(scale(&safe_pos, Color::White).is_some_and(|s| s <= 4));
        let wrong_pos = Position::from_fen("8/8/8/8/8/2R5/8/3K1bk1 w - - 0 1").unwrap();
        assert!(scale(&wrong_pos, Color::White).is_some_and(|s| s >= 20));
        let wrong = white_eval("8/8/8/8/8/2R5/8/3K1bk1 w - - 0 1");
        assert!(wrong > safe + 40, "{wrong} v {safe}");
        // Rook v knight, knight beside its king in the centre: drawish.
        let near = white_eval("8/8/8/8/3kn3/8/8/R3K3 w - - 0 1");
        assert!((0..60).contains(&near), "{near}");
        // Knight cut off far from its king on the edge: winning chances kept. The rule's
        // scale says so; the tuned base value of the ending itself is small, so the test
        // compares with the drawish case rather than a fixed margin.
        let far_pos = Position::from_fen("1n6/8/8/8/7k/8/2K5/6R1 w - - 0 1").unwrap();
        assert!(scale(&far_pos, Color::White).is_some_and(|s| s >= 40));
        let near_pos = Position::from_fen("8/8/8/8/3kn3/8/8/R3K3 w - - 0 1").unwrap();
        assert!(scale(&near_pos, Color::White).is_some_and(|s| s <= 8));
        let far = white_eval("1n6/8/8/8/7k/8/2K5/6R1 w - - 0 1");
        assert!(far > near + 40, "{far} v {near}");
        for f in [
            "7k/8/5K2/8/8/8/6b1/R7 w - - 0 1",
            "8/8/8/8/8/2R5/8/3K1bk1 w - - 0 1",
            "8/8/8/8/3kn3/8/8/R3K3 w - - 0 1",
            "1n6/8/8/8/7k/8/2K5/6R1 b - - 0 1",
        ] {
            check_symmetric(f);
        }
    }

    #[test]
    fn queen_against_seventh_rank_pawn_rule() {
        // c-pawn with the king beside it, or in the a1 corner (taking stalemates): draw.
        assert_eq!(white_eval("6K1/8/8/8/8/8/1kp5/7Q w - - 0 1"), 0);
        assert_eq!(white_eval("4Q1K1/8/8/8/8/8/2p5/k7 w - - 0 1"), 0);
        // Same king on a2, not in the stalemate corner: the queen wins.
        assert!(white_eval("6K1/8/8/8/8/8/k1p5/7Q w - - 0 1") > 500);
        // Centre pawn: always won.
        assert!(white_eval("6K1/8/8/8/8/8/2kp4/7Q w - - 0 1") > 500);
        check_symmetric("4Q1K1/8/8/8/8/8/2p5/k7 w - - 0 1");
    }

    #[test]
    fn frozen_pawn_chain_is_a_dead_draw() {
        // Every pawn rammed, black pawns all on light squares, the extra bishop dark:
        // nothing can ever be captured and neither king can pass.
        let chain = "4k3/8/2p1p3/1pPpPp1p/pP1P1PpP/P5P1/8/2B1K3 w - - 0 1";
        assert_eq!(white_eval(chain), 0);
        assert!(frozen_pawn_structure(&Position::from_fen(chain).unwrap()));
        check_symmetric(chain);
        // A light-squared bishop can attack the black pawns: no longer frozen.
        let light = "4k3/8/2p1p3/1pPpPp1p/pP1P1PpP/P5P1/8/3BK3 w - - 0 1";
        assert!(white_eval(light) > 150);
        // Without the black a-pawn, a3-a4 and axb5 open the chain.
        let open = "4k3/8/2p1p3/1pPpPp1p/1P1P1PpP/P5P1/8/2B1K3 w - - 0 1";
        assert!(!frozen_pawn_structure(&Position::from_fen(open).unwrap()));
        assert!(white_eval(open) > 150);
        // A pawn that can capture (b4xa5) breaks the chain.
        let lever = "4k3/8/2p1p3/ppPpPp1p/PP1P1PpP/6P1/8/2B1K3 w - - 0 1";
        assert!(!frozen_pawn_structure(&Position::from_fen(lever).unwrap()));
    }
}
