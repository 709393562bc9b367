//! The series-aware position: a chess board plus the state of the current
//! series (its length, how many moves are played), the progressive en-passant
//! bookkeeping and the 10-turn clock, with legal move generation under the
//! Italian or Scottish rules.
//!
//! The board is the core's [`Position`]. Several consecutive moves by one side
//! are made by playing a move and then a null move (`play_null`) that hands the
//! turn back; that is safe because after our own legal move our king is never
//! in check, and under the Italian rules the opponent is not in check either
//! before the last move. En passant is handled here, not by the core: any pawn
//! that made a double step in the previous series (and has not moved since) may
//! be taken, and only with the first move, which the core cannot express.

use crate::error::ProgressiveError;
use crate::rules::Rules;
use bastion_core::attacks;
use bastion_core::{Bitboard, Color, Move, MoveList, Position, Role, Square};

/// Longest series this crate handles (a game reaching turn 200 is adjudicated long before).
pub const MAX_SERIES: u32 = 200;

/// What the position at hand means for the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Status {
    /// The side to move has a legal move; play goes on.
    Ongoing,
    /// The side to move is in check at the start of its series and has no legal
    /// first move (escapes that would give check count as unavailable): it loses.
    Checkmate,
    /// The side to move has no legal move at some point of its series without
    /// being mated: a draw (progressive stalemate).
    Stalemate,
    /// Ten consecutive turns without a capture or pawn move: a draw.
    TenTurnRule,
}

/// A position inside a progressive game: whose series it is, how long the
/// series is and how many of its moves are already played.
#[derive(Clone, Debug)]
pub struct SeriesPosition {
    board: Position,
    rules: Rules,
    series_len: u32,
    played: u32,
    turn: u32,
    /// With `played == 0`: squares the side to move may capture onto en passant
    /// with its first move. With `played > 0`: the squares passed over by the
    /// mover's own double steps in this series (targets for the opponent).
    ep: Bitboard,
    quiet_turns: u32,
    zeroing: bool,
}

/// Squares a double step by `color` passes over, for the pawns on `pawns`.
fn passed_squares(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => pawns.south(),
        Color::Black => pawns.north(),
    }
}

impl SeriesPosition {
    /// The start of a game: White to play a series of one move.
    pub fn startpos(rules: Rules) -> SeriesPosition {
        SeriesPosition::from_board(Position::startpos(), 1, rules)
    }

    /// A position at the start of a series of `series_len` moves for the side
    /// to move on `board` (clocks zero, no en passant, turn number = series length).
    pub fn from_board(board: Position, series_len: u32, rules: Rules) -> SeriesPosition {
        let mut board = board;
        board.set_clocks(0, 1);
        SeriesPosition {
            board,
            rules,
            series_len: series_len.max(1),
            played: 0,
            turn: series_len.max(1),
            ep: Bitboard::EMPTY,
            quiet_turns: 0,
            zeroing: false,
        }
    }

    /// Builds a position from its parts, checking them for consistency.
    pub fn new(
        board: Position,
        series_len: u32,
        played: u32,
        ep: Bitboard,
        quiet_turns: u32,
        turn: u32,
        rules: Rules,
    ) -> Result<SeriesPosition, ProgressiveError> {
        if series_len == 0 || series_len > MAX_SERIES {
            return Err(ProgressiveError::BadSeries(format!(
                "series length {series_len} is not in 1..={}",
                MAX_SERIES
            )));
        }
        if played >= series_len {
            return Err(ProgressiveError::BadSeries(format!(
                "{played} moves played of a series of {series_len}: at most {} may be",
                series_len - 1
            )));
        }
        if played > 0 && board.in_check() {
            return Err(ProgressiveError::BadSeries(
                "the side to move cannot be in check in the middle of its series".into(),
            ));
        }
        let us = board.side_to_move();
        let them = !us;
        // Validate the en-passant squares against the pawns that must have made the step.
        for sq in ep {
            let (owner, rank_ok) = if played == 0 {
                (them, sq.rank().relative(them).index() == 2)
            } else {
                (us, sq.rank().relative(us).index() == 2)
            };
            let pawn_sq = match owner {
                Color::White => sq.offset(8),
                Color::Black => sq.offset(-8),
            };
            // The passed square may be occupied later in the series; then the
            // capture is simply unavailable, so only the pawn is required.
            let ok = rank_ok && pawn_sq.is_some_and(|p| board.pieces(owner, Role::Pawn).contains(p));
            if !ok {
                return Err(ProgressiveError::BadEnPassant(sq.to_string()));
            }
        }
        let mut board = board;
        board.set_clocks(0, 1);
        Ok(SeriesPosition { board, rules, series_len, played, turn: turn.max(1), ep, quiet_turns, zeroing: false })
    }

    // ----- queries -----

    /// The board (the side to move is the side playing the series).
    pub fn board(&self) -> &Position {
        &self.board
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side playing the current series.
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// Number of moves in the current series.
    pub fn series_len(&self) -> u32 {
        self.series_len
    }

    /// Moves of the current series already played.
    pub fn played(&self) -> u32 {
        self.played
    }

    /// Moves of the current series still to play.
    pub fn moves_left(&self) -> u32 {
        self.series_len - self.played
    }

    /// The turn number used in notation (`3.` for the third series of a game).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Completed turns since the last capture or pawn move (draw at 10).
    pub fn quiet_turns(&self) -> u32 {
        self.quiet_turns
    }

    /// The en-passant squares (see the progressive FEN description in [`crate::fen`]).
    pub fn ep_squares(&self) -> Bitboard {
        self.ep
    }

    /// True at the first move of a series.
    pub fn is_series_start(&self) -> bool {
        self.played == 0
    }

    /// True if the next move is the last of the series.
    pub fn is_last_move(&self) -> bool {
        self.played + 1 == self.series_len
    }

    /// True if the side to move is in check (only possible at the start of a series).
    pub fn in_check(&self) -> bool {
        self.board.in_check()
    }

    /// A key for transposition tables and repetition: the board (without the
    /// core's own en-passant field), moves left and en-passant state.
    pub fn key(&self) -> u64 {
        let mut k = self.board.key();
        if let Some(ep) = self.board.ep_square() {
            k ^= bastion_core::zobrist::en_passant(ep.file().index());
        }
        k ^ crate::keys::series_key(self.moves_left(), self.played == 0, self.ep)
    }

    /// Key of the placement, side and castling rights only (for repetition of
    /// series-start positions, whose series length always differs).
    pub fn board_key(&self) -> u64 {
        let mut k = self.board.key();
        if let Some(ep) = self.board.ep_square() {
            k ^= bastion_core::zobrist::en_passant(ep.file().index());
        }
        k
    }

    // ----- move generation -----

    /// En-passant captures available to the side to move (first move only).
    fn ep_captures(&self, out: &mut MoveList) {
        if self.played != 0 || self.ep.is_empty() {
            return;
        }
        let us = self.side_to_move();
        let them = !us;
        let our_pawns = self.board.pieces(us, Role::Pawn);
        let king = self.board.king(us);
        for target in self.ep & !self.board.occupied() {
            for from in attacks::pawn_attacks(them, target) & our_pawns {
                let m = Move::en_passant(from, target);
                let after = self.board.play(m);
                if !after.is_attacked_by(king, them, after.occupied()) {
                    out.push(m);
                }
            }
        }
    }

    /// Orthodox-legal moves here, with progressive en passant instead of the core's.
    pub fn pseudo_series_moves(&self) -> MoveList {
        let mut list = self.board.legal_moves();
        list.retain(|m| !m.is_en_passant());
        self.ep_captures(&mut list);
        list
    }

    /// True if `m` (orthodox-legal here) is allowed by the series rules.
    /// Under the Italian rules a move before the last may not give check.
    pub fn allows(&self, m: Move) -> bool {
        if self.is_last_move() || self.rules == Rules::Scottish {
            return true;
        }
        !self.board.play(m).in_check()
    }

    /// The legal moves for the next move of the series.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = self.pseudo_series_moves();
        if !(self.is_last_move() || self.rules == Rules::Scottish) {
            let b = &self.board;
            list.retain(|m| !b.play(m).in_check());
        }
        list
    }

    /// True if the next move of the series has at least one legal choice.
    pub fn has_legal_moves(&self) -> bool {
        let list = self.pseudo_series_moves();
        if self.is_last_move() || self.rules == Rules::Scottish {
            return !list.is_empty();
        }
        list.iter().any(|&m| !self.board.play(m).in_check())
    }

    /// True if `m` is a legal next move.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// The state of the game here.
    pub fn status(&self) -> Status {
        if !self.has_legal_moves() {
            if self.played == 0 && self.in_check() {
                return Status::Checkmate;
            }
            return Status::Stalemate;
        }
        if self.played == 0 && self.quiet_turns >= 10 {
            return Status::TenTurnRule;
        }
        Status::Ongoing
    }

    /// Plays a legal move, checked against [`SeriesPosition::legal_moves`].
    pub fn play(&self, m: Move) -> Result<SeriesPosition, ProgressiveError> {
        if !self.is_legal(m) {
            return Err(ProgressiveError::IllegalMove(self.board.to_uci(m)));
        }
        Ok(self.play_unchecked(m))
    }

    /// Plays a move known to be legal. When it ends the series (its last move,
    /// or a check under the Scottish rules) the result is the opponent's series start.
    pub fn play_unchecked(&self, m: Move) -> SeriesPosition {
        let after = self.board.play(m);
        self.advance(m, after)
    }

    /// Calls `f(move, child)` for every legal next move, playing each once.
    pub fn for_each_child(&self, mut f: impl FnMut(Move, SeriesPosition)) {
        let filter = !(self.is_last_move() || self.rules == Rules::Scottish);
        for &m in self.pseudo_series_moves().iter() {
            let after = self.board.play(m);
            if filter && after.in_check() {
                continue;
            }
            f(m, self.advance(m, after));
        }
    }

    /// Builds the position after `m`, given the board `after` = `board.play(m)`.
    pub(crate) fn advance(&self, m: Move, mut after: Position) -> SeriesPosition {
        // The core's clocks mean nothing here (this type keeps its own); fixing
        // them keeps equal positions equal.
        after.set_clocks(0, 1);
        let us = self.side_to_move();
        let from = m.from();
        let is_pawn = self.board.role_at(from) == Some(Role::Pawn);
        let capture = m.is_en_passant() || (!m.is_castling() && self.board.piece_at(m.to()).is_some());
        // Our own double steps this series: drop a pawn that moves again, add a new one.
        let mut own_steps = if self.played == 0 { Bitboard::EMPTY } else { self.ep };
        if is_pawn {
            own_steps &= !passed_squares(us, Bitboard::from_square(from));
            if from.index() ^ m.to().index() == 16 {
                own_steps |= passed_squares(us, Bitboard::from_square(m.to()));
            }
        }
        let zeroing = self.zeroing || is_pawn || capture;
        let played = self.played + 1;
        let ends = played == self.series_len || (self.rules == Rules::Scottish && after.in_check());
        if ends {
            SeriesPosition {
                board: after,
                rules: self.rules,
                series_len: (self.series_len + 1).min(MAX_SERIES),
                played: 0,
                turn: self.turn + 1,
                ep: own_steps,
                quiet_turns: if zeroing { 0 } else { self.quiet_turns + 1 },
                zeroing: false,
            }
        } else {
            let mut board = after.play_null();
            board.set_clocks(0, 1);
            SeriesPosition {
                board,
                rules: self.rules,
                series_len: self.series_len,
                played,
                turn: self.turn,
                ep: own_steps,
                quiet_turns: self.quiet_turns,
                zeroing,
            }
        }
    }

    /// Plays a whole series (or its remaining moves), checking every move.
    pub fn play_series(&self, moves: &[Move]) -> Result<SeriesPosition, ProgressiveError> {
        let mut p = self.clone();
        for &m in moves {
            p = p.play(m)?;
        }
        Ok(p)
    }

    /// The same position with another series length (and nothing played).
    pub fn with_series_len(&self, len: u32) -> SeriesPosition {
        let mut p = self.clone();
        if p.played == 0 {
            p.series_len = len.clamp(1, MAX_SERIES);
        }
        p
    }

    /// True if the current series has already captured or moved a pawn.
    pub fn series_zeroed(&self) -> bool {
        self.zeroing
    }

    pub(crate) fn with_zeroing(mut self) -> SeriesPosition {
        self.zeroing = true;
        self
    }

    /// The same position under other rules.
    pub fn with_rules(&self, rules: Rules) -> SeriesPosition {
        let mut p = self.clone();
        p.rules = rules;
        p
    }

    /// True if the side to move, at the start of a series and in check, has no
    /// legal escape: the progressive checkmate test on a series-start position.
    pub fn is_checkmate(&self) -> bool {
        self.played == 0 && self.in_check() && !self.has_legal_moves()
    }

    /// Notation of a legal move here: SAN with `+` for check and `#` for a
    /// progressive mate (`+`/`#` only on a series-ending move).
    pub fn move_text(&self, m: Move) -> String {
        let mut s = self.board.san_without_suffix(m);
        let next = self.play_unchecked(m);
        if next.played == 0 && next.in_check() {
            s.push(if next.is_checkmate() { '#' } else { '+' });
        }
        s
    }

    /// Reads a move in SAN (`Nf3`, `exd5`, `e8=Q`), long algebraic (`Ng1-f3`,
    /// `e4xd5`) or UCI (`g1f3`), and returns the legal move it names.
    pub fn parse_move(&self, text: &str) -> Result<Move, ProgressiveError> {
        let bad = || ProgressiveError::IllegalMove(text.to_string());
        let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
        if t.is_empty() || !t.is_ascii() {
            return Err(bad());
        }
        let legal = self.legal_moves();
        // UCI.
        if let Ok(m) = self.board.parse_uci(t) {
            if legal.contains(&m) {
                return Ok(m);
            }
            // Castling given as e1g1 and en passant: compare by text.
            if let Some(&x) = legal.iter().find(|&&x| self.board.to_uci(x) == t) {
                return Ok(x);
            }
        }
        let norm = t.replace('0', "O").replace('=', "");
        // SAN: compare with the SAN of every legal move (promotion '=' optional).
        let mut found = None;
        for &m in legal.iter() {
            let san = self.board.san_without_suffix(m).replace('=', "");
            if san == norm {
                found = Some(m);
                break;
            }
        }
        if let Some(m) = found {
            return Ok(m);
        }
        // Long algebraic: [piece] from ('-'|'x') to [=promo].
        let la = norm.replace(['-', 'x', ':'], "");
        let la = la.trim_start_matches(['K', 'Q', 'R', 'B', 'N']);
        if la.len() >= 4 {
            let from: Result<Square, _> = la[..2].parse();
            let to: Result<Square, _> = la[2..4].parse();
            if let (Ok(from), Ok(to)) = (from, to) {
                let promo = la[4..].chars().next().and_then(|c| Role::from_char(c.to_ascii_lowercase()));
                for &m in legal.iter() {
                    let dest = if m.is_castling() { m.king_destination() } else { m.to() };
                    if m.from() == from && (dest == to || m.to() == to) && m.promotion_role() == promo {
                        return Ok(m);
                    }
                }
            }
        }
        Err(bad())
    }
}

impl std::fmt::Display for SeriesPosition {
    /// An 8×8 diagram, rank 8 on top, then the progressive FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8 {
                let c = self.board.piece_at(Square::from_index(rank * 8 + file)).map_or('.', |p| p.char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h")?;
        write!(f, "{}", self.fen())
    }
}

impl PartialEq for SeriesPosition {
    /// Equal placement, side, castling rights and series state. The core's own
    /// en-passant field and clocks are ignored (this type keeps its own).
    fn eq(&self, other: &Self) -> bool {
        self.board_key() == other.board_key()
            && Role::ALL.iter().all(|&r| self.board.role_bb(r) == other.board.role_bb(r))
            && Color::ALL.iter().all(|&c| self.board.color_bb(c) == other.board.color_bb(c))
            && self.board.side_to_move() == other.board.side_to_move()
            && self.board.castling() == other.board.castling()
            && self.rules == other.rules
            && self.series_len == other.series_len
            && self.played == other.played
            && self.turn == other.turn
            && self.ep == other.ep
            && self.quiet_turns == other.quiet_turns
            && self.zeroing == other.zeroing
    }
}

impl Eq for SeriesPosition {}
