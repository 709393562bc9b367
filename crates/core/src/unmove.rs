//! Un-moves: moves played backwards, for retrograde analysis (tablebases).
//!
//! An un-move takes back the last move of the side that is *not* to move. It
//! may put back a captured piece of the side to move (an *un-capture*, of a
//! role the caller asks for), turn a piece on the last rank back into a pawn
//! (an *un-promotion*), or take back an en-passant capture (which always
//! un-captures a pawn). Castling is never taken back, and predecessors never
//! carry castling rights: tablebases have none.
//!
//! Every un-move returned is exact: the predecessor is a legal position (the
//! side not to move there is not in check, at most two checkers) and playing
//! [`Position::unmove_forward`] in it with [`Position::play`] gives back the starting
//! placement, side to move and en-passant square. Predecessors have no
//! en-passant square except after taking back an en-passant capture, where
//! the square the capture landed on is restored.
//!
//! ```
//! use bastion_core::{Position, Role};
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R b - - 1 1").unwrap();
//! for um in pos.unmoves(&[Role::Knight]) {
//!     let before = pos.unplay(&um);
//!     assert_eq!(before.play(pos.unmove_forward(&um)).epd(), pos.epd());
//! }
//! ```

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::castling::Castling;
use crate::color::Color;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;

/// A move taken back: the piece on `from` returns to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnMove {
    /// Where the piece stands now (the forward move's destination).
    pub from: Square,
    /// Where it goes back to (the forward move's origin).
    pub to: Square,
    /// The role of the piece of the side to move put back (on `from`, or behind it
    /// for en passant), if the forward move was a capture.
    pub uncapture: Option<Role>,
    /// True if the piece on `from` turns back into a pawn.
    pub unpromotion: bool,
    /// True if the forward move was an en-passant capture.
    pub en_passant: bool,
}

impl UnMove {
    /// The forward move that leads from the predecessor back to the position.
    pub fn forward(&self, promoted: Option<Role>) -> Move {
        if self.en_passant {
            Move::en_passant(self.to, self.from)
        } else if let (true, Some(role)) = (self.unpromotion, promoted) {
            Move::promotion(self.to, self.from, role)
        } else {
            Move::normal(self.to, self.from)
        }
    }
}

/// An un-move together with the forward move it takes back (the promoted
/// role is only known from the position, so this pairs them for callers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnMoveFull {
    /// The un-move.
    pub unmove: UnMove,
    /// The forward move played in the predecessor.
    pub forward: Move,
}

impl Position {
    /// All un-moves of the side that just moved (the side *not* to move), with
    /// un-captures of the given roles (kings are ignored; pawns are never put
    /// back on the first or last rank). Un-promotions are always included;
    /// callers that want none filter on [`UnMove::unpromotion`]. Positions with
    /// castling rights are treated as having none.
    pub fn unmoves(&self, uncaptures: &[Role]) -> Vec<UnMove> {
        let mut out = Vec::new();
        let mover = !self.side;
        let occ = self.occupied();
        let empty = !occ;
        let uncaps: Vec<Role> = uncaptures.iter().copied().filter(|&r| r != Role::King).collect();
        let back_rank = |c: Color| Bitboard::rank(crate::square::Rank::FIRST.relative(c));
        let last_rank = |c: Color| Bitboard::rank(crate::square::Rank::EIGHTH.relative(c));
        // The piece the side to move could have lost on `sq` (pawns not on end ranks).
        let uncap_ok = |role: Role, sq: Square| role != Role::Pawn || !Bitboard::BACKRANKS.contains(sq);

        let push_with_uncaptures =
            |out: &mut Vec<UnMove>, from: Square, to: Square, unpromotion: bool, quiet_ok: bool| {
                if quiet_ok {
                    out.push(UnMove { from, to, uncapture: None, unpromotion, en_passant: false });
                }
                for &role in &uncaps {
                    if uncap_ok(role, from) {
                        out.push(UnMove { from, to, uncapture: Some(role), unpromotion, en_passant: false });
                    }
                }
            };

        for from in self.color_bb(mover) {
            let Some(role) = self.role_at(from) else { continue };
            match role {
                Role::Pawn => {
                    // A pawn on its second rank has never moved.
                    let fwd: i8 = if mover == Color::White { 8 } else { -8 };
                    let Some(back1) = from.offset(-fwd) else { continue };
                    if back_rank(mover).contains(back1) {
                        continue;
                    }
                    if empty.contains(back1) {
                        out.push(UnMove { from, to: back1, uncapture: None, unpromotion: false, en_passant: false });
                        // Double step: from the fourth rank back to the second.
                        if from.rank().relative(mover).index() == 3 {
                            let back2 = back1.offset(-fwd).expect("fourth rank has a second");
                            if empty.contains(back2) {
                                out.push(UnMove {
                                    from,
                                    to: back2,
                                    uncapture: None,
                                    unpromotion: false,
                                    en_passant: false,
                                });
                            }
                        }
                    }
                    // Captures came diagonally from behind.
                    let origins = attacks::pawn_attacks(!mover, from) & empty & !back_rank(mover);
                    for to in origins {
                        push_with_uncaptures(&mut out, from, to, false, false);
                        // En passant: the capture landed on the sixth rank and the
                        // captured pawn stood beside the origin.
                        if from.rank().relative(mover).index() == 5 {
                            let victim = from.offset(-fwd).expect("sixth rank has a fifth");
                            let start = from.offset(fwd).expect("sixth rank has a seventh");
                            if empty.contains(victim) && empty.contains(start) {
                                out.push(UnMove {
                                    from,
                                    to,
                                    uncapture: Some(Role::Pawn),
                                    unpromotion: false,
                                    en_passant: true,
                                });
                            }
                        }
                    }
                }
                _ => {
                    let targets = attacks::attacks(role, mover, from, occ) & empty;
                    for to in targets {
                        push_with_uncaptures(&mut out, from, to, false, true);
                    }
                    // Un-promotion: a piece on the last rank was a pawn on the seventh.
                    if role != Role::King && last_rank(mover).contains(from) {
                        let fwd: i8 = if mover == Color::White { 8 } else { -8 };
                        let straight = from.offset(-fwd).expect("last rank has a seventh");
                        if empty.contains(straight) {
                            out.push(UnMove {
                                from,
                                to: straight,
                                uncapture: None,
                                unpromotion: true,
                                en_passant: false,
                            });
                        }
                        for to in attacks::pawn_attacks(!mover, from) & empty {
                            push_with_uncaptures(&mut out, from, to, true, false);
                        }
                    }
                }
            }
        }
        out.retain(|um| self.unmove_is_exact(um));
        out
    }

    /// The position before `um` (see [`Position::unmoves`]); the clocks are reset.
    pub fn unplay(&self, um: &UnMove) -> Position {
        let mover = !self.side;
        let mut p = self.clone();
        let piece = self.piece_at(um.from).expect("un-move starts on a piece");
        p.remove(um.from, piece);
        let back = if um.unpromotion { Piece::new(mover, Role::Pawn) } else { piece };
        p.put(um.to, back);
        if let Some(role) = um.uncapture {
            let sq = if um.en_passant { Square::from_coords(um.from.file(), um.to.rank()) } else { um.from };
            p.put(sq, Piece::new(self.side, role));
        }
        p.side = mover;
        p.castling = Castling::NONE;
        p.ep = if um.en_passant { Some(um.from) } else { None };
        p.halfmove = 0;
        p.refresh();
        p
    }

    /// The forward move that `um` takes back, as played in [`Position::unplay`]'s result.
    pub fn unmove_forward(&self, um: &UnMove) -> Move {
        let promoted = if um.unpromotion { self.role_at(um.from) } else { None };
        um.forward(promoted)
    }

    /// Un-moves paired with their forward moves.
    pub fn unmoves_full(&self, uncaptures: &[Role]) -> Vec<UnMoveFull> {
        self.unmoves(uncaptures)
            .into_iter()
            .map(|unmove| UnMoveFull { unmove, forward: self.unmove_forward(&unmove) })
            .collect()
    }

    /// True if the predecessor is legal and the forward move really leads here
    /// (this settles checks, pins and whether an en-passant square appears).
    fn unmove_is_exact(&self, um: &UnMove) -> bool {
        let pred = self.unplay(um);
        // The side that did not move may not stand in check before the move.
        if pred.is_attacked_by(pred.king(self.side), pred.side, pred.occupied()) || pred.checkers.count() > 2 {
            return false;
        }
        if um.en_passant {
            if pred.legal_ep_captures(um.from).is_empty() {
                return false;
            }
            // Before the double step the pawn's side was to move: the other
            // king may not have been in check then either.
            let fwd: i8 = if self.side == Color::White { 8 } else { -8 };
            let victim = Square::from_coords(um.from.file(), um.to.rank());
            let start = um.from.offset(-fwd).expect("en-passant square has a start square");
            let occ = pred.occupied().without(victim).with(start);
            let mut before = pred.clone();
            before.remove(victim, Piece::new(self.side, Role::Pawn));
            before.put(start, Piece::new(self.side, Role::Pawn));
            if before.is_attacked_by(before.king(!self.side), self.side, occ) {
                return false;
            }
        }
        let fwd = self.unmove_forward(um);
        if !pred.is_legal(fwd) {
            return false;
        }
        let after = pred.play(fwd);
        after.by_color == self.by_color
            && after.by_role == self.by_role
            && after.side == self.side
            && after.ep == self.ep
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;
    use std::collections::BTreeSet;

    /// (successor key, predecessor key, forward move) triples; keys cover
    /// placement, side to move and en-passant square.
    type Edges = BTreeSet<(u64, u64, u16)>;

    /// A callback receiving one placement of men.
    type Visit<'a> = dyn FnMut(&[(Square, Piece)]) + 'a;

    fn all_placements(roles: &[Piece], king_squares: &[Square], mut f: impl FnMut(&[(Square, Piece)])) {
        fn rec(roles: &[Piece], kings: &[Square], acc: &mut Vec<(Square, Piece)>, f: &mut Visit<'_>) {
            if acc.len() == roles.len() {
                f(acc);
                return;
            }
            let pc = roles[acc.len()];
            let squares: Vec<Square> = if acc.is_empty() { kings.to_vec() } else { Square::all().collect() };
            for sq in squares {
                if acc.iter().any(|&(s, _)| s == sq) {
                    continue;
                }
                acc.push((sq, pc));
                rec(roles, kings, acc, f);
                acc.pop();
            }
        }
        rec(roles, king_squares, &mut Vec::new(), &mut f);
    }

    fn pieces(s: &str) -> Vec<Piece> {
        s.chars().map(|c| Piece::from_char(c).unwrap()).collect()
    }

    /// All legal positions of the material (first piece restricted to `first`),
    /// both sides to move, plus every position with an en-passant square that a
    /// double step from them produces.
    fn positions(material: &str, first: &[Square]) -> Vec<Position> {
        let mut out = Vec::new();
        all_placements(&pieces(material), first, |pl| {
            for side in Color::ALL {
                if let Ok(p) = Position::from_pieces(pl, side) {
                    out.push(p);
                }
            }
        });
        let mut eps = Vec::new();
        for p in &out {
            for m in p.legal_moves().iter() {
                let q = p.play(*m);
                if q.ep_square().is_some() {
                    eps.push(q);
                }
            }
        }
        out.extend(eps);
        out
    }

    fn strip(p: &Position) -> u64 {
        p.key()
    }

    /// Checks that the un-moves of every successor (material `succ`) leading to
    /// predecessors of material `pred` are exactly the moves found forwards.
    fn check(pred_material: &str, succ_materials: &[&str], first: &[Square], uncaptures: &[Role]) {
        let keep = |p: &Position| first.contains(&p.king(Color::White));
        let mut forward = Edges::new();
        let succ_keys: BTreeSet<String> = succ_materials.iter().map(|m| sorted(m)).collect();
        for p in positions(pred_material, first) {
            for &m in p.legal_moves().iter() {
                let q = p.play(m);
                // Predecessors carry no en-passant square unless the move takes it.
                if keep(&q) && succ_keys.contains(&material_of(&q)) && (p.ep_square().is_none() || m.is_en_passant()) {
                    forward.insert((strip(&q), strip(&p), m.raw()));
                }
            }
        }
        let mut backward = Edges::new();
        let mut n_succ = 0;
        for mat in succ_materials {
            for q in positions(mat, first) {
                n_succ += 1;
                for um in q.unmoves(uncaptures) {
                    let p = q.unplay(&um);
                    let m = q.unmove_forward(&um);
                    // Playing the un-move forwards returns to the start.
                    assert_eq!(strip(&p.play(m)), strip(&q), "{um:?} from {}", q.fen());
                    assert!(p.is_legal(m));
                    if keep(&p) && material_of(&p) == sorted(pred_material) {
                        backward.insert((strip(&q), strip(&p), m.raw()));
                    }
                }
            }
        }
        assert!(n_succ > 0 && !forward.is_empty());
        let fwd_only: Vec<_> = forward.difference(&backward).take(5).collect();
        let back_only: Vec<_> = backward.difference(&forward).take(5).collect();
        assert!(fwd_only.is_empty() && back_only.is_empty(), "forward only {fwd_only:?}, backward only {back_only:?}");
    }

    fn sorted(s: &str) -> String {
        let mut v: Vec<char> = s.chars().collect();
        v.sort_unstable();
        v.into_iter().collect()
    }

    fn material_of(p: &Position) -> String {
        let mut s: Vec<char> = p.occupied().map(|sq| p.piece_at(sq).unwrap().char()).collect();
        s.sort_unstable();
        s.into_iter().collect()
    }

    #[test]
    fn krk_unmoves_match_brute_force() {
        let all: Vec<Square> = Square::all().collect();
        check("KRk", &["KRk"], &all, &[]);
    }

    #[test]
    fn kpk_unmoves_match_brute_force_with_promotions() {
        // White king on a sample of squares (corner, edges, centre) to keep it fast.
        let all: Vec<Square> = ["a1", "h1", "b3", "e4", "d6", "a8", "g7", "h5"].map(|s| s.parse().unwrap()).to_vec();
        // Successors of KPK positions: KPK itself and the four promotions.
        check("KPk", &["KPk", "KQk", "KRk", "KBk", "KNk"], &all, &[]);
    }

    #[test]
    fn knk_uncapturing_a_knight_matches_brute_force() {
        let some = ["a1", "e4"].map(|s| s.parse().unwrap());
        // White takes a black knight: KNkn → KNk (quiet un-moves are covered by KRK/KPK).
        check("KNkn", &["KNk"], &some, &[Role::Knight]);
    }

    #[test]
    fn en_passant_unmoves_match_brute_force() {
        let some = ["a1", "h8"].map(|s| s.parse().unwrap());
        // Pawn takes pawn, en passant included: KPkp → KPk / Kkp.
        check("KPkp", &["KPk", "Kkp"], &some, &[Role::Pawn]);
    }

    #[test]
    fn unplay_restores_ep_square() {
        let q = Position::from_fen("4k3/8/3P4/8/8/8/8/4K3 b - - 0 1").unwrap();
        let ums: Vec<_> = q.unmoves(&[Role::Pawn]).into_iter().filter(|u| u.en_passant).collect();
        assert_eq!(ums.len(), 2);
        for um in ums {
            let p = q.unplay(&um);
            assert_eq!(p.ep_square(), Some("d6".parse().unwrap()));
        }
    }
}
