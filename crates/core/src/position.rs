//! The position: piece bitboards plus a mailbox, side to move, castling
//! rights, en-passant square, clocks and incrementally updated keys.
//!
//! Moves are applied by copy-make ([`Position::play`]) or in place
//! ([`Position::play_unchecked`], or [`Position::make`]/[`Position::unmake`] with
//! an undo record). Perft measured in-place make/unmake faster at inner plies and
//! a copy (~170 bytes) faster at the last ply; [`crate::CheckInfo`] makes either
//! cheaper when many moves of one position are played.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::castling::{Castling, CastlingSide};
use crate::check_info::CheckInfo;
use crate::color::Color;
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, Role};
use crate::square::{File, Square};
use crate::zobrist;

const EMPTY: u8 = 255;

/// Mailbox codes 0..12 decoded to pieces (White 0..6, Black 6..12); other codes are empty.
static PIECE_OF_CODE: [Piece; 12] = {
    let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    let mut out = [Piece::new(Color::White, Role::Pawn); 12];
    let mut i = 0;
    while i < 12 {
        out[i] = Piece::new(if i < 6 { Color::White } else { Color::Black }, roles[i % 6]);
        i += 1;
    }
    out
};

/// Every hash key of a position, as [`Position::keys_from_scratch`] computes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    /// [`Position::key`].
    pub key: u64,
    /// [`Position::pawn_key`].
    pub pawn: u64,
    /// [`Position::material_key`].
    pub material: u64,
    /// [`Position::non_pawn_key`] of White and Black.
    pub non_pawn: [u64; 2],
}

/// A chess position with everything needed to generate and play moves.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) mailbox: [u8; 64],
    pub(crate) side: Color,
    pub(crate) castling: Castling,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    pub(crate) pawn_key: u64,
    pub(crate) material_key: u64,
    pub(crate) non_pawn_keys: [u64; 2],
    pub(crate) checkers: Bitboard,
    pub(crate) chess960: bool,
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl std::fmt::Display for Position {
    /// An 8×8 diagram, rank 8 on top, followed by the FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8 {
                let sq = Square::from_index(rank * 8 + file);
                let c = self.piece_at(sq).map_or('.', Piece::char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h")?;
        write!(f, "{}", self.fen())
    }
}

impl Position {
    /// A position with no pieces, White to move; fill it with `put`
    /// and finish with [`Position::validate`].
    pub fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [EMPTY; 64],
            side: Color::White,
            castling: Castling::NONE,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            pawn_key: 0,
            material_key: 0,
            non_pawn_keys: [0; 2],
            checkers: Bitboard::EMPTY,
            chess960: false,
        }
    }

    // ----- queries -----

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All squares occupied by `role` of either colour.
    #[inline]
    pub fn role_bb(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// All squares occupied by `color`.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[role.index()] & self.by_color[color.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Bishops and queens of `color` (pieces that move diagonally).
    #[inline]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]) & self.by_color[color.index()]
    }

    /// Rooks and queens of `color` (pieces that move orthogonally).
    #[inline]
    pub fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        (self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]) & self.by_color[color.index()]
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        PIECE_OF_CODE.get(self.mailbox[sq.index()] as usize).copied()
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        let v = self.mailbox[sq.index()];
        if v == EMPTY {
            None
        } else {
            Role::from_index(v as usize % 6)
        }
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True if the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.nonempty()
    }

    /// The castling rights.
    #[inline]
    pub fn castling(&self) -> &Castling {
        &self.castling
    }

    /// The en-passant target square, present only when an en-passant capture is legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Halfmoves since the last capture or pawn move (50-move rule).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    /// The move number, starting at 1 and increased after Black moves.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// Sets the clocks (used by FEN parsing and by tools that build positions).
    pub fn set_clocks(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove.min(u16::MAX as u32) as u16;
        self.fullmove = fullmove.clamp(1, u16::MAX as u32) as u16;
    }

    /// Zobrist key of the whole position (pieces, side, castling, en passant).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Zobrist key of the pawns alone (for pawn-structure caches).
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Key of the material (piece counts) alone (for material tables and endgame lookup).
    #[inline]
    pub fn material_key(&self) -> u64 {
        self.material_key
    }

    /// Zobrist key of `color`'s pieces other than pawns, king included (for correction
    /// histories keyed by piece placement).
    #[inline]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.non_pawn_keys[color.index()]
    }

    /// True if castling moves are written Chess960-style (king takes rook).
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Chooses Chess960 notation for castling (UCI `e1h1`, X-FEN file letters).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Number of pieces of `color` and `role`.
    #[inline]
    pub fn count(&self, color: Color, role: Role) -> u32 {
        self.pieces(color, role).count()
    }

    /// Pieces of both colours that attack `sq`, given the occupied squares `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (attacks::pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (attacks::pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
            | (attacks::knight_attacks(sq) & self.by_role[Role::Knight.index()])
            | (attacks::king_attacks(sq) & self.by_role[Role::King.index()])
            | (attacks::rook_attacks(sq, occ) & (self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]))
            | (attacks::bishop_attacks(sq, occ)
                & (self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]))
    }

    /// Pieces of the other side giving check to `color`'s king.
    #[inline(always)]
    fn checkers_of(&self, color: Color) -> Bitboard {
        let king = self.king(color);
        let them = !color;
        let occ = self.occupied();
        (attacks::pawn_attacks(color, king) & self.pieces(them, Role::Pawn))
            | (attacks::knight_attacks(king) & self.pieces(them, Role::Knight))
            | (attacks::bishop_attacks(king, occ) & self.diagonal_sliders(them))
            | (attacks::rook_attacks(king, occ) & self.orthogonal_sliders(them))
    }

    /// Checkers after `piece` made the normal move `from`–`to` (side already switched):
    /// the moved piece itself, plus a slider uncovered behind `from`. Cheaper than
    /// [`Self::checkers_of`] because most moves leave `from` off the king's lines.
    #[inline(always)]
    fn checkers_after(&self, piece: Piece, from: Square, to: Square) -> Bitboard {
        let us = piece.color;
        let king = self.king(!us);
        let occ = self.occupied();
        let mut checkers = Bitboard::EMPTY;
        if piece.role != Role::King && attacks::attacks(piece.role, us, to, occ).contains(king) {
            checkers = Bitboard::from_square(to);
        }
        if attacks::line(from, king).nonempty() {
            let uncovered = if from.file() == king.file() || from.rank() == king.rank() {
                attacks::rook_attacks(king, occ) & self.orthogonal_sliders(us)
            } else {
                attacks::bishop_attacks(king, occ) & self.diagonal_sliders(us)
            };
            checkers |= uncovered;
        }
        checkers
    }

    /// True if `by` attacks `sq` given the occupied squares `occ`.
    #[inline]
    pub fn is_attacked_by(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        (attacks::knight_attacks(sq) & self.by_role[Role::Knight.index()] & them).nonempty()
            || (attacks::pawn_attacks(!by, sq) & self.by_role[Role::Pawn.index()] & them).nonempty()
            || (attacks::king_attacks(sq) & self.by_role[Role::King.index()] & them).nonempty()
            || (attacks::rook_attacks(sq, occ) & self.orthogonal_sliders(by)).nonempty()
            || (attacks::bishop_attacks(sq, occ) & self.diagonal_sliders(by)).nonempty()
    }

    /// All squares attacked by `color`'s pieces.
    pub fn attacked_squares(&self, color: Color) -> Bitboard {
        let occ = self.occupied();
        let mut out = Bitboard::EMPTY;
        for sq in self.by_color[color.index()] {
            if let Some(role) = self.role_at(sq) {
                out |= attacks::attacks(role, color, sq, occ);
            }
        }
        out
    }

    /// `color`'s pieces that shield its king from an enemy slider (absolutely pinned
    /// if they belong to `color`, discovered-check candidates if to the other side).
    pub fn blockers_for_king(&self, color: Color) -> Bitboard {
        let king = self.king(color);
        let them = !color;
        let occ = self.occupied();
        let snipers = (attacks::rook_rays(king) & self.orthogonal_sliders(them))
            | (attacks::bishop_rays(king) & self.diagonal_sliders(them));
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let between = attacks::between(king, s).without(s) & occ;
            if between.nonempty() && !between.more_than_one() {
                blockers |= between;
            }
        }
        blockers
    }

    /// The position with colours swapped and the board flipped vertically: the same
    /// position seen from the other side (evaluation must negate under it).
    pub fn mirrored(&self) -> Position {
        let mut p = Position::empty();
        for sq in self.occupied() {
            if let Some(pc) = self.piece_at(sq) {
                p.put(sq.flip_vertical(), Piece::new(!pc.color, pc.role));
            }
        }
        p.side = !self.side;
        for color in Color::ALL {
            for wing in CastlingSide::ALL {
                if let Some(r) = self.castling.rook(color, wing) {
                    p.castling.set(!color, wing, r.flip_vertical());
                }
            }
        }
        p.ep = self.ep.map(Square::flip_vertical);
        p.halfmove = self.halfmove;
        p.fullmove = self.fullmove;
        p.chess960 = self.chess960;
        p.refresh();
        p
    }

    // ----- editing -----

    /// Puts `piece` on the empty square `sq`, updating bitboards and keys.
    /// Call [`Position::refresh`] (or use FEN parsing) before generating moves.
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] |= bb;
        self.by_color[piece.color.index()] |= bb;
        self.mailbox[sq.index()] = piece.index() as u8;
        let k = zobrist::piece_square(piece, sq);
        self.key ^= k;
        if piece.role == Role::Pawn {
            self.pawn_key ^= k;
        } else {
            self.non_pawn_keys[piece.color.index()] ^= k;
        }
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.mailbox[sq.index()] = EMPTY;
        let k = zobrist::piece_square(piece, sq);
        self.key ^= k;
        if piece.role == Role::Pawn {
            self.pawn_key ^= k;
        } else {
            self.non_pawn_keys[piece.color.index()] ^= k;
        }
    }

    #[inline(always)]
    fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.mailbox[from.index()] = EMPTY;
        self.mailbox[to.index()] = piece.index() as u8;
        let k = zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
        self.key ^= k;
        if piece.role == Role::Pawn {
            self.pawn_key ^= k;
        } else {
            self.non_pawn_keys[piece.color.index()] ^= k;
        }
    }

    /// Recomputes every derived field (keys, checkers) from the placement and state.
    pub(crate) fn refresh(&mut self) {
        let (mut key, mut pawn_key, mut material_key, mut non_pawn_keys) = (0u64, 0u64, 0u64, [0u64; 2]);
        for sq in self.occupied() {
            if let Some(pc) = self.piece_at(sq) {
                let k = zobrist::piece_square(pc, sq);
                key ^= k;
                if pc.role == Role::Pawn {
                    pawn_key ^= k;
                } else {
                    non_pawn_keys[pc.color.index()] ^= k;
                }
            }
        }
        for color in Color::ALL {
            for role in Role::ALL {
                for n in 0..self.count(color, role) {
                    material_key ^= zobrist::material(Piece::new(color, role), n);
                }
            }
        }
        for rook in self.castling.rook_squares() {
            key ^= zobrist::castling(rook);
        }
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant(ep.file().index());
        }
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        self.key = key;
        self.pawn_key = pawn_key;
        self.material_key = material_key;
        self.non_pawn_keys = non_pawn_keys;
        self.checkers = if self.pieces(self.side, Role::King).nonempty() {
            self.attackers_to(self.king(self.side), self.occupied()) & self.by_color[(!self.side).index()]
        } else {
            Bitboard::EMPTY
        };
    }

    /// Computes keys from scratch (for tests that check the incremental update).
    pub fn keys_from_scratch(&self) -> Keys {
        let mut p = self.clone();
        p.refresh();
        Keys { key: p.key, pawn: p.pawn_key, material: p.material_key, non_pawn: p.non_pawn_keys }
    }

    // ----- making moves -----

    /// Plays a legal move and returns the new position (copy-make).
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.play_unchecked(m);
        p
    }

    /// Plays `m` in place. The move must be legal (or at least pseudo-legal for
    /// the side to move); anything else leaves a corrupt position.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) {
        self.play_impl(m, None);
    }

    /// [`Position::play_unchecked`] with this position's [`CheckInfo`], which makes
    /// finding the checks the move gives cheaper when many moves are played.
    #[inline(always)]
    pub fn play_unchecked_with(&mut self, m: Move, ci: &CheckInfo) {
        self.play_impl(m, Some(ci));
    }

    #[inline(always)]
    fn play_impl(&mut self, m: Move, ci: Option<&CheckInfo>) {
        let us = self.side;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let Some(piece) = self.piece_at(from) else { return };

        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::en_passant(ep.file().index());
        }
        let old_castling = self.castling;
        self.halfmove = self.halfmove.saturating_add(1);

        match m.kind() {
            MoveKind::Castling => {
                let rook = Piece::new(us, Role::Rook);
                let kingside = to > from;
                let rank = from.rank();
                let kdest = Square::from_coords(if kingside { File::G } else { File::C }, rank);
                let rdest = Square::from_coords(if kingside { File::F } else { File::D }, rank);
                self.remove(from, piece);
                self.remove(to, rook);
                self.put(kdest, piece);
                self.put(rdest, rook);
                self.castling.remove_color(us);
            }
            MoveKind::EnPassant => {
                let cap_sq = Square::from_coords(to.file(), from.rank());
                let cap = Piece::new(them, Role::Pawn);
                self.remove(cap_sq, cap);
                self.material_key ^= zobrist::material(cap, self.count(them, Role::Pawn));
                self.shift(from, to, piece);
                self.halfmove = 0;
            }
            MoveKind::Promotion | MoveKind::Normal => {
                if let Some(captured) = self.piece_at(to) {
                    self.remove(to, captured);
                    self.material_key ^= zobrist::material(captured, self.count(them, captured.role));
                    self.halfmove = 0;
                    if !self.castling.is_empty() {
                        self.castling.remove_rook(to);
                    }
                }
                if let Some(role) = m.promotion_role() {
                    let promoted = Piece::new(us, role);
                    self.remove(from, piece);
                    self.material_key ^= zobrist::material(piece, self.count(us, Role::Pawn));
                    self.material_key ^= zobrist::material(promoted, self.count(us, role));
                    self.put(to, promoted);
                } else {
                    self.shift(from, to, piece);
                }
                match piece.role {
                    Role::Pawn => {
                        self.halfmove = 0;
                        if from.index() ^ to.index() == 16 {
                            let ep = Square::from_index((from.index() + to.index()) / 2);
                            if (attacks::pawn_attacks(us, ep) & self.pieces(them, Role::Pawn)).nonempty() {
                                self.ep = Some(ep);
                            }
                        }
                    }
                    Role::King => self.castling.remove_color(us),
                    Role::Rook if !self.castling.is_empty() => self.castling.remove_rook(from),
                    _ => {}
                }
            }
        }

        let (old_rooks, new_rooks) = (old_castling.as_u32(), self.castling.as_u32());
        if old_rooks != new_rooks {
            // Rights are only ever lost here, so each changed lane held a rook square.
            for (old, new) in old_rooks.to_le_bytes().into_iter().zip(new_rooks.to_le_bytes()) {
                if let (true, Some(rook)) = (old != new, Square::new(old)) {
                    self.key ^= zobrist::castling(rook);
                }
            }
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.key ^= zobrist::side();
        self.checkers = match m.kind() {
            MoveKind::Normal => match ci {
                Some(ci) => self.checkers_with(ci, piece.role, from, to),
                None => self.checkers_after(piece, from, to),
            },
            _ => self.checkers_of(them),
        };

        // Keep the en-passant square only if some capture is really legal, so equal
        // positions get equal keys (repetition) and FENs match python-chess's.
        if let Some(ep) = self.ep {
            if self.legal_ep_captures(ep).is_empty() {
                self.ep = None;
            } else {
                self.key ^= zobrist::en_passant(ep.file().index());
            }
        }
    }

    /// Passes the turn (null move) for search; not legal when in check.
    pub fn play_null(&self) -> Position {
        let mut p = self.clone();
        if let Some(ep) = p.ep.take() {
            p.key ^= zobrist::en_passant(ep.file().index());
        }
        p.side = !p.side;
        p.key ^= zobrist::side();
        p.halfmove = p.halfmove.saturating_add(1);
        p.checkers = Bitboard::EMPTY;
        p
    }

    /// The pawns of the side to move that can legally capture en passant onto `ep`.
    pub(crate) fn legal_ep_captures(&self, ep: Square) -> Bitboard {
        let us = self.side;
        let them = !us;
        let candidates = attacks::pawn_attacks(them, ep) & self.pieces(us, Role::Pawn);
        if ep.rank().relative(us).index() != 5 {
            return Bitboard::EMPTY;
        }
        // The captured pawn stands just behind the en-passant square.
        let cap_sq = match us {
            Color::White => Square::from_index(ep.index() - 8),
            Color::Black => Square::from_index(ep.index() + 8),
        };
        if !self.pieces(them, Role::Pawn).contains(cap_sq) {
            return Bitboard::EMPTY;
        }
        let king = self.king(us);
        candidates
            .filter(|&from| {
                let occ = (self.occupied().without(from).without(cap_sq)).with(ep);
                let attackers = (attacks::rook_attacks(king, occ) & self.orthogonal_sliders(them))
                    | (attacks::bishop_attacks(king, occ) & self.diagonal_sliders(them))
                    | (attacks::knight_attacks(king) & self.pieces(them, Role::Knight))
                    | (attacks::pawn_attacks(us, king) & self.pieces(them, Role::Pawn).without(cap_sq));
                attackers.is_empty()
            })
            .collect()
    }
}

impl Position {
    /// The check info of this position, for [`Position::play_unchecked_with`] and
    /// [`Position::make_with`] over many of its moves.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side;
        let king = self.king(!us);
        let occ = self.occupied();
        let diagonal = attacks::bishop_attacks(king, occ);
        let orthogonal = attacks::rook_attacks(king, occ);
        CheckInfo::new(
            [
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                diagonal,
                orthogonal,
                diagonal | orthogonal,
                Bitboard::EMPTY,
            ],
            self.blockers_for_king(!us) & self.color_bb(us),
        )
    }

    /// Checkers after a normal move `from`–`to` of a `role` piece, using the check
    /// info of the position before the move (side already switched). Exact: a
    /// piece moving along a line towards or away from the king cannot start or stop
    /// attacking it without having attacked it before, which a legal position rules out.
    #[inline(always)]
    pub(crate) fn checkers_with(&self, ci: &CheckInfo, role: Role, from: Square, to: Square) -> Bitboard {
        let mut checkers = ci.check_squares(role) & Bitboard::from_square(to);
        if ci.discoverers().contains(from) {
            let king = self.king(self.side);
            if !attacks::aligned(king, from, to) {
                let occ = self.occupied();
                let mover = !self.side;
                checkers |= (attacks::rook_attacks(king, occ) & self.orthogonal_sliders(mover))
                    | (attacks::bishop_attacks(king, occ) & self.diagonal_sliders(mover));
            }
        }
        checkers
    }
}
