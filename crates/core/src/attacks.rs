//! Attack sets of every piece type: precomputed tables for leapers, magic
//! bitboards (or PEXT with the `pext` feature on BMI2 targets) for sliders.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::piece::Role;
use crate::square::Square;

/// One square's entry in a sliding-attack table.
pub(crate) struct Magic {
    mask: u64,
    #[cfg_attr(all(feature = "pext", target_feature = "bmi2"), allow(dead_code))]
    magic: u64,
    #[cfg_attr(all(feature = "pext", target_feature = "bmi2"), allow(dead_code))]
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Attacks on an empty board along `dirs` (the slider's "pseudo-attacks").
const fn ray_table(dirs: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < dirs.len() {
            let (mut f, mut r) = ((sq % 8) as i32 + dirs[i].0, (sq / 8) as i32 + dirs[i].1);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1 << (r * 8 + f);
                f += dirs[i].0;
                r += dirs[i].1;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static ROOK_RAYS: [u64; 64] = ray_table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
static BISHOP_RAYS: [u64; 64] = ray_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1)]);
static KNIGHT: [u64; 64] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [u64; 64] = leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
static PAWN: [[u64; 64]; 2] = [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];

#[inline(always)]
fn slider(entry: &Magic, occupied: Bitboard) -> Bitboard {
    #[cfg(all(feature = "pext", target_feature = "bmi2"))]
    // SAFETY: this code is compiled only when the target has BMI2.
    let index = unsafe { std::arch::x86_64::_pext_u64(occupied.0, entry.mask) } as usize;
    #[cfg(not(all(feature = "pext", target_feature = "bmi2")))]
    let index = ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    // Indices stay within the square's slice by construction of the tables in build.rs.
    Bitboard(SLIDER_ATTACKS[entry.offset + index])
}

/// Squares a rook on `sq` attacks given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider(&ROOK_MAGICS[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider(&BISHOP_MAGICS[sq.index()], occupied)
}

/// Squares a rook on `sq` would attack on an empty board: one load, for cheap
/// "could any rook-like piece reach this square at all" filters.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Squares a bishop on `sq` would attack on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// Squares a queen on `sq` attacks given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures towards).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares a piece of `role` and `color` on `sq` attacks.
#[inline(always)]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` on a shared line, plus `b`; just `b` if not aligned.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The whole line (rank, file or diagonal) through `a` and `b`; empty if not aligned.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index()][b.index()])
}

/// True if `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Whether the attack tables are indexed by PEXT (true) or magic multiplication.
pub const fn uses_pext() -> bool {
    USE_PEXT
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_ray(sq: Square, occ: Bitboard, dirs: &[(i32, i32)]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq.file().index() as i32 + df, sq.rank().index() as i32 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::from_index((r * 8 + f) as usize);
                out.set(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn sliders_match_slow_rays() {
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & x.rotate_left(17));
            for sq in Square::all() {
                assert_eq!(rook_attacks(sq, occ), slow_ray(sq, occ, &[(1, 0), (-1, 0), (0, 1), (0, -1)]));
                assert_eq!(bishop_attacks(sq, occ), slow_ray(sq, occ, &[(1, 1), (1, -1), (-1, 1), (-1, -1)]));
                assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY));
                assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY));
            }
        }
    }

    #[test]
    fn between_and_line() {
        let a1: Square = "a1".parse().unwrap();
        let h8: Square = "h8".parse().unwrap();
        let d4: Square = "d4".parse().unwrap();
        let b3: Square = "b3".parse().unwrap();
        assert_eq!(between(a1, h8).count(), 7);
        assert!(between(a1, h8).contains(h8));
        assert!(!between(a1, h8).contains(a1));
        assert_eq!(between(a1, b3), Bitboard::from_square(b3));
        assert!(aligned(a1, d4, h8));
        assert!(!aligned(a1, b3, h8));
        assert_eq!(line(a1, d4).count(), 8);
    }
}
