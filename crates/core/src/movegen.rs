//! Legal move generation, aware of checks and pins.
//!
//! One generic routine writes moves into a `Sink`: a [`MoveList`] for
//! search, or a counter that only adds popcounts (bulk counting for perft).
//! Generation can be limited to noisy moves (captures and promotions),
//! quiet moves, or the moves of chosen pieces.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::check_info::CheckInfo;
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::position::Position;
use crate::square::{File, Rank, Square};

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Captures (en passant included) and all promotions: the search's first stage.
    Noisy,
    /// Everything else: non-capturing, non-promoting moves, castling included.
    Quiet,
}

/// Receives generated moves in batches.
pub(crate) trait Sink {
    /// Normal moves of the piece on `from` to each of `targets`.
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to each of `targets`, each coming from `to - delta`.
    fn pawns(&mut self, targets: Bitboard, delta: i8);
    /// Pawn promotions to each of `targets` (four moves each), from `to - delta`.
    fn promotions(&mut self, targets: Bitboard, delta: i8);
    /// A single special move (castling, en passant).
    fn single(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::normal(Square::from_index((to.index() as i32 - delta as i32) as usize), to));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::from_index((to.index() as i32 - delta as i32) as usize);
            for role in Role::PROMOTIONS {
                self.push(Move::promotion(from, to, role));
            }
        }
    }
    #[inline(always)]
    fn single(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without building them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += 4 * targets.count() as u64;
    }
    #[inline(always)]
    fn single(&mut self, _m: Move) {
        self.0 += 1;
    }
}

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;

impl Position {
    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(GenType::All, &mut list);
        list
    }

    /// Appends the legal moves of type `gen` to `list`.
    #[inline]
    pub fn generate_into(&self, gen: GenType, list: &mut MoveList) {
        match gen {
            GenType::All => self.generate::<_, true, true>(list, Bitboard::FULL),
            GenType::Noisy => self.generate::<_, true, false>(list, Bitboard::FULL),
            GenType::Quiet => self.generate::<_, false, true>(list, Bitboard::FULL),
        }
    }

    /// Legal moves of the piece on `from` only.
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, true, true>(&mut list, Bitboard::from_square(from));
        list
    }

    /// The number of legal moves, counted without building them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter(0);
        self.generate::<_, true, true>(&mut c, Bitboard::FULL);
        c.0
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// True if `m` is legal here (safe for moves from hash tables or other positions).
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_null() {
            return false;
        }
        match self.piece_at(m.from()) {
            Some(pc) if pc.color == self.side => self.legal_moves_from(m.from()).contains(&m),
            _ => false,
        }
    }

    /// Our pieces pinned to our king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.blockers_for_king(self.side) & self.color_bb(self.side)
    }

    #[inline(always)]
    pub(crate) fn generate<S: Sink, const NOISY: bool, const QUIET: bool>(&self, sink: &mut S, from_mask: Bitboard) {
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let ours = self.color_bb(us);
        let theirs = self.color_bb(them);
        let king = self.king(us);
        let checkers = self.checkers;

        let kind_mask = match (NOISY, QUIET) {
            (true, true) => !ours,
            (true, false) => theirs,
            (false, true) => !occ,
            (false, false) => Bitboard::EMPTY,
        };

        if from_mask.contains(king) {
            let occ_without_king = occ.without(king);
            let mut targets = attacks::king_attacks(king) & kind_mask;
            for to in targets {
                if self.is_attacked_by(to, them, occ_without_king) {
                    targets.clear(to);
                }
            }
            sink.piece(king, targets);
        }

        if checkers.more_than_one() {
            return;
        }
        let check_mask = match checkers.first() {
            Some(checker) => attacks::between(king, checker),
            None => Bitboard::FULL,
        };
        let target = kind_mask & check_mask;
        let pinned = self.pinned();
        let movable = ours & from_mask;

        for from in self.pieces(us, Role::Knight) & (movable - pinned) {
            sink.piece(from, attacks::knight_attacks(from) & target);
        }
        let diag = self.diagonal_sliders(us) & movable;
        for from in diag - pinned {
            sink.piece(from, attacks::bishop_attacks(from, occ) & target);
        }
        for from in diag & pinned {
            sink.piece(from, attacks::bishop_attacks(from, occ) & target & attacks::line(king, from));
        }
        let orth = self.orthogonal_sliders(us) & movable;
        for from in orth - pinned {
            sink.piece(from, attacks::rook_attacks(from, occ) & target);
        }
        for from in orth & pinned {
            sink.piece(from, attacks::rook_attacks(from, occ) & target & attacks::line(king, from));
        }

        self.generate_pawns::<S, NOISY, QUIET>(sink, movable, pinned, check_mask);

        if QUIET && checkers.is_empty() && from_mask.contains(king) {
            self.generate_castling(sink, king, occ);
        }
    }

    #[inline(always)]
    fn generate_pawns<S: Sink, const NOISY: bool, const QUIET: bool>(
        &self,
        sink: &mut S,
        movable: Bitboard,
        pinned: Bitboard,
        check_mask: Bitboard,
    ) {
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let empty = !occ;
        let theirs = self.color_bb(them);
        let king = self.king(us);
        let pawns = self.pieces(us, Role::Pawn) & movable;
        let promo_rank = Bitboard::rank(Rank::EIGHTH.relative(us));
        let third_rank = Bitboard::rank(Rank::new(2).unwrap_or(Rank::FIRST).relative(us));

        // Unpinned pawns set-wise; pinned pawns may move only along the pin line.
        let free = pawns - pinned;
        let (up, left, right) = match us {
            Color::White => (8i8, 7i8, 9i8),
            Color::Black => (-8i8, -9i8, -7i8),
        };
        let shift = |bb: Bitboard, delta: i8| -> Bitboard {
            if delta > 0 {
                Bitboard(bb.0 << delta)
            } else {
                Bitboard(bb.0 >> -delta)
            }
        };

        let single = shift(free, up) & empty;
        let cap_left = shift(Bitboard(free.0 & NOT_A), left) & theirs & check_mask;
        let cap_right = shift(Bitboard(free.0 & NOT_H), right) & theirs & check_mask;
        if QUIET {
            let double = shift(single & third_rank, up) & empty & check_mask;
            sink.pawns((single & check_mask) - promo_rank, up);
            sink.pawns(double, 2 * up);
        }
        if NOISY {
            sink.pawns(cap_left - promo_rank, left);
            sink.pawns(cap_right - promo_rank, right);
            sink.promotions(single & check_mask & promo_rank, up);
            sink.promotions(cap_left & promo_rank, left);
            sink.promotions(cap_right & promo_rank, right);
        }

        for from in pawns & pinned {
            let allowed = attacks::line(king, from) & check_mask;
            let fb = Bitboard::from_square(from);
            let one = shift(fb, up) & empty;
            let caps = attacks::pawn_attacks(us, from) & theirs & allowed;
            if QUIET {
                let two = shift(one & third_rank, up) & empty & allowed;
                sink.pawns((one & allowed) - promo_rank, up);
                sink.pawns(two, 2 * up);
            }
            if NOISY {
                sink.promotions(one & allowed & promo_rank, up);
                for to in caps {
                    let delta = to.index() as i8 - from.index() as i8;
                    if promo_rank.contains(to) {
                        sink.promotions(Bitboard::from_square(to), delta);
                    } else {
                        sink.pawns(Bitboard::from_square(to), delta);
                    }
                }
            }
        }

        if NOISY {
            if let Some(ep) = self.ep {
                for from in self.legal_ep_captures(ep) & movable {
                    sink.single(Move::en_passant(from, ep));
                }
            }
        }
    }

    fn generate_castling<S: Sink>(&self, sink: &mut S, king: Square, occ: Bitboard) {
        let us = self.side;
        let them = !us;
        for wing in CastlingSide::ALL {
            let Some(rook) = self.castling.rook(us, wing) else { continue };
            let (kfile, rfile) = match wing {
                CastlingSide::King => (File::G, File::F),
                CastlingSide::Queen => (File::C, File::D),
            };
            let kdest = Square::from_coords(kfile, king.rank());
            let rdest = Square::from_coords(rfile, king.rank());
            let others = occ.without(king).without(rook);
            let path = attacks::between(king, kdest) | attacks::between(rook, rdest);
            if (path & others).nonempty() {
                continue;
            }
            // Squares the king crosses must be safe now; its destination must be safe
            // with the rook already moved (in Chess960 the rook may have shielded it).
            let crossed = attacks::between(king, kdest).without(kdest).without(king);
            if crossed.into_iter().any(|s| self.is_attacked_by(s, them, occ)) {
                continue;
            }
            let after = others.with(kdest).with(rdest);
            if self.is_attacked_by(kdest, them, after) {
                continue;
            }
            sink.single(Move::castling(king, rook));
        }
    }

    /// True if playing the legal move `m` gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        self.gives_check_with(m, &self.check_info())
    }

    /// [`Position::gives_check`] with this position's [`CheckInfo`], computed once
    /// for all the moves a search tries here.
    #[inline]
    pub fn gives_check_with(&self, m: Move, ci: &CheckInfo) -> bool {
        if !matches!(m.kind(), crate::moves::MoveKind::Normal) {
            return self.special_move_gives_check(m);
        }
        let (from, to) = (m.from(), m.to());
        let Some(role) = self.role_at(from) else { return false };
        ci.check_squares(role).contains(to)
            || (ci.discoverers().contains(from) && !attacks::aligned(from, to, self.king(!self.side)))
    }

    /// Castling, en passant and promotions: rare, so played out rather than reasoned about,
    /// and kept out of line so the common path of [`Position::gives_check_with`] stays small.
    #[cold]
    #[inline(never)]
    fn special_move_gives_check(&self, m: Move) -> bool {
        self.play(m).in_check()
    }
}
