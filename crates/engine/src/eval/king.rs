//! King shelter and pawn storm (the king-attack terms live with the piece loop).

use super::layout::*;
use super::masks::file_mask;
use super::Trace;
use bastion_core::{Color, Position, Role};

/// Shelter and storm of `c`'s king, added to `acc`.
pub fn shelter<T: Trace>(pos: &Position, c: Color, w: &[S; NUM_PARAMS], acc: &mut S, t: &mut T) {
    let ksq = pos.king(c).index();
    let kfile = ksq % 8;
    let ours = pos.pieces(c, Role::Pawn).0;
    let theirs = pos.pieces(!c, Role::Pawn).0;
    let centre = kfile.clamp(1, 6);
    // Only pawns on or in front of the king's rank shelter it or storm it.
    let zone_rows = match c {
        Color::White => !0u64 << (8 * (ksq / 8)),
        Color::Black => !0u64 >> (8 * (7 - ksq / 8)),
    };
    for f in centre - 1..=centre + 1 {
        let fm = file_mask(f) & zone_rows;
        let mine = ours & fm;
        let rank = if mine == 0 {
            0
        } else if c == Color::White {
            mine.trailing_zeros() as usize / 8
        } else {
            7 - (63 - mine.leading_zeros() as usize) / 8
        };
        *acc += w[SHELTER + rank];
        t.add(SHELTER + rank, c, 1);
        let theirs_f = theirs & fm;
        let srank = if theirs_f == 0 {
            0
        } else if c == Color::White {
            theirs_f.trailing_zeros() as usize / 8
        } else {
            7 - (63 - theirs_f.leading_zeros() as usize) / 8
        };
        *acc += w[STORM + srank];
        t.add(STORM + srank, c, 1);
    }
    if ours & file_mask(kfile) == 0 {
        *acc += w[KING_OPEN_FILE];
        t.add(KING_OPEN_FILE, c, 1);
    }
}
