//! King and pawn against king: an exact win/draw bitbase, computed once by retrograde
//! iteration on first use (a few milliseconds), after the classic scheme (Stockfish's
//! `bitbase.cpp`): positions are indexed with the pawn side as White and the pawn on
//! files a–d; everything else is found by mirroring.

use bastion_core::{Color, Position, Role, Square};
use std::sync::OnceLock;

const INVALID: u8 = 0;
const UNKNOWN: u8 = 1;
const DRAW: u8 = 2;
const WIN: u8 = 4;

/// 2 sides to move × 24 pawn squares (files a–d, ranks 2–7) × 64 × 64 king squares.
const SIZE: usize = 2 * 24 * 64 * 64;

/// Board squares as (file, rank) pairs, 0-based.
#[inline]
fn fr(sq: usize) -> (i32, i32) {
    ((sq % 8) as i32, (sq / 8) as i32)
}

#[inline]
fn dist(a: usize, b: usize) -> i32 {
    let (af, ar) = fr(a);
    let (bf, br) = fr(b);
    (af - bf).abs().max((ar - br).abs())
}

/// `stm` 0 = White (the pawn side) to move. Pawn on files a–d, ranks 2–7.
#[inline]
fn index(stm: usize, bk: usize, wk: usize, p: usize) -> usize {
    let (pf, pr) = fr(p);
    wk | (bk << 6) | (stm << 12) | ((pf as usize) << 13) | (((6 - pr) as usize) << 15)
}

/// Squares a white pawn on `p` attacks.
fn pawn_attacks(p: usize) -> impl Iterator<Item = usize> {
    let (f, r) = fr(p);
    [(f - 1, r + 1), (f + 1, r + 1)]
        .into_iter()
        .filter(|&(f, r)| (0..8).contains(&f) && r < 8)
        .map(|(f, r)| (r * 8 + f) as usize)
}

fn king_moves(k: usize) -> impl Iterator<Item = usize> {
    let (f, r) = fr(k);
    (-1..=1)
        .flat_map(move |df| (-1..=1).map(move |dr| (f + df, r + dr)))
        .filter(move |&(nf, nr)| (nf, nr) != (f, r) && (0..8).contains(&nf) && (0..8).contains(&nr))
        .map(|(nf, nr)| (nr * 8 + nf) as usize)
}

fn initial(stm: usize, bk: usize, wk: usize, p: usize) -> u8 {
    let attacked_by_pawn = |sq: usize| pawn_attacks(p).any(|a| a == sq);
    if dist(wk, bk) <= 1 || wk == p || bk == p || (stm == 0 && attacked_by_pawn(bk)) {
        return INVALID;
    }
    let promo = p + 8;
    if stm == 0 && p / 8 == 6 && wk != promo && bk != promo && (dist(bk, promo) > 1 || dist(wk, promo) == 1) {
        return WIN;
    }
    if stm == 1 {
        let safe = |sq: usize| dist(sq, wk) > 1 && !attacked_by_pawn(sq);
        let can_move = king_moves(bk).any(|sq| sq != p && safe(sq));
        let takes_pawn = dist(bk, p) == 1 && dist(wk, p) > 1;
        if takes_pawn || (!can_move && !attacked_by_pawn(bk)) {
            return DRAW;
        }
    }
    UNKNOWN
}

fn classify(db: &[u8], stm: usize, bk: usize, wk: usize, p: usize) -> u8 {
    let mut r = INVALID;
    if stm == 0 {
        for k in king_moves(wk) {
            if dist(k, bk) > 1 && k != p {
                r |= db[index(1, bk, k, p)];
            }
        }
        let one = p + 8;
        if p / 8 < 6 && one != wk && one != bk {
            r |= db[index(1, bk, wk, one)];
            let two = p + 16;
            if p / 8 == 1 && two != wk && two != bk {
                r |= db[index(1, bk, wk, two)];
            }
        }
        if r & WIN != 0 {
            WIN
        } else if r & UNKNOWN != 0 {
            UNKNOWN
        } else {
            DRAW
        }
    } else {
        for k in king_moves(bk) {
            if dist(k, wk) > 1 && !pawn_attacks(p).any(|a| a == k) && k != p {
                r |= db[index(0, k, wk, p)];
            }
        }
        if r & DRAW != 0 {
            DRAW
        } else if r & UNKNOWN != 0 {
            UNKNOWN
        } else {
            WIN
        }
    }
}

fn build() -> Vec<u8> {
    let mut db = vec![INVALID; SIZE];
    let squares = || {
        (0..2).flat_map(|stm| {
            (0..24).flat_map(move |pi| {
                let p = (pi / 4 + 1) * 8 + pi % 4;
                (0..64).flat_map(move |bk| (0..64).map(move |wk| (stm, bk, wk, p)))
            })
        })
    };
    for (stm, bk, wk, p) in squares() {
        db[index(stm, bk, wk, p)] = initial(stm, bk, wk, p);
    }
    loop {
        let mut changed = false;
        for (stm, bk, wk, p) in squares() {
            let i = index(stm, bk, wk, p);
            if db[i] == UNKNOWN {
                let v = classify(&db, stm, bk, wk, p);
                if v != UNKNOWN {
                    db[i] = v;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    for v in db.iter_mut() {
        if *v == UNKNOWN {
            *v = DRAW;
        }
    }
    db
}

static DB: OnceLock<Vec<u8>> = OnceLock::new();

fn table() -> &'static [u8] {
    DB.get_or_init(build)
}

/// Starts building the bitbase on a background thread (once per process), so that the
/// first KPK position met in a search does not pay for it; a probe meanwhile waits.
pub fn prepare_in_background() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        std::thread::spawn(|| {
            table();
        });
    });
}

/// For a position with exactly a king and one pawn of `strong` against a bare king:
/// `Some(true)` if the pawn side wins, `Some(false)` if it is a draw; `None` for
/// other material.
pub fn probe(pos: &Position, strong: Color) -> Option<bool> {
    let weak = !strong;
    let pawns = pos.pieces(strong, Role::Pawn);
    if pos.occupied().count() != 3 || pawns.count() != 1 || pos.color_bb(weak).count() != 1 {
        return None;
    }
    // Normalise: pawn side White, pawn on files a–d.
    let norm = |sq: Square| -> usize {
        let sq = if strong == Color::White { sq } else { sq.flip_vertical() };
        let i = sq.index();
        if pawns.lsb().file().index() >= 4 {
            i ^ 7
        } else {
            i
        }
    };
    let p = norm(pawns.lsb());
    let wk = norm(pos.king(strong));
    let bk = norm(pos.king(weak));
    let stm = usize::from(pos.side_to_move() != strong);
    Some(table()[index(stm, bk, wk, p)] == WIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(fen: &str) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let strong = if pos.pieces(Color::White, Role::Pawn).nonempty() { Color::White } else { Color::Black };
        probe(&pos, strong).unwrap()
    }

    #[test]
    fn textbook_kpk_positions() {
        // King on the sixth in front of its pawn wins whoever moves.
        assert!(win("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"));
        assert!(win("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"));
        // Defender holds the opposition in front of the pawn.
        assert!(!win("4k3/8/4P3/4K3/8/8/8/8 w - - 0 1"));
        // Rook pawn with the defender in the corner: draw.
        assert!(!win("k7/8/8/8/8/8/P7/K7 w - - 0 1"));
        // Outside the square: the pawn runs.
        assert!(win("8/8/8/8/k7/8/6P1/6K1 w - - 0 1"));
        // Inside the square with the move: caught.
        assert!(!win("8/8/8/5k2/8/8/6P1/K7 b - - 0 1"));
        // Black pawn side, colour-flipped first position.
        assert!(win("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1"));
        assert!(!win("8/8/8/8/4k3/4p3/8/4K3 b - - 0 1"));
    }

    #[test]
    fn symmetric_under_mirrors() {
        // Every position with pawn on the kingside agrees with its file mirror, and the
        // colour flip agrees with the original.
        let mut checked = 0;
        for p in [Square::from_index(14), Square::from_index(37), Square::from_index(47)] {
            for wk in (0..64).step_by(5) {
                for bk in (0..64).step_by(3) {
                    let (wk, bk) = (Square::from_index(wk), Square::from_index(bk));
                    if wk.distance(bk) <= 1 || wk == p || bk == p {
                        continue;
                    }
                    let placed = [
                        (p, bastion_core::Piece::new(Color::White, Role::Pawn)),
                        (wk, bastion_core::Piece::new(Color::White, Role::King)),
                        (bk, bastion_core::Piece::new(Color::Black, Role::King)),
                    ];
                    let Ok(pos) = Position::from_pieces(&placed, Color::Black) else { continue };
                    let a = probe(&pos, Color::White).unwrap();
                    assert_eq!(a, probe(&pos.mirrored(), Color::Black).unwrap(), "{}", pos.fen());
                    let flipped: Vec<_> = placed.iter().map(|&(s, pc)| (s.flip_horizontal(), pc)).collect();
                    let m = Position::from_pieces(&flipped, Color::Black).unwrap();
                    assert_eq!(a, probe(&m, Color::White).unwrap(), "{}", m.fen());
                    checked += 1;
                }
            }
        }
        assert!(checked > 200);
    }
}
