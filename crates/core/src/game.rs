//! Game rules over a sequence of positions: checkmate, stalemate, repetition,
//! the 50- and 75-move rules and insufficient material; make/unmake on a stack.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::error::MoveError;
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;

/// How a game ended (or may be claimed to end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can possibly mate.
    InsufficientMaterial,
    /// 100 halfmoves without capture or pawn move: a draw either side may claim.
    FiftyMoves,
    /// The position occurred for the third time: a draw either side may claim.
    ThreefoldRepetition,
    /// 150 halfmoves without capture or pawn move: an automatic draw.
    SeventyFiveMoves,
    /// The position occurred for the fifth time: an automatic draw.
    FivefoldRepetition,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub termination: Termination,
}

impl Outcome {
    /// The PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl Position {
    /// True if the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_moves()
    }

    /// True if the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_moves()
    }

    /// True if `color` cannot mate by any sequence of legal moves, by the
    /// same material test python-chess uses.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.color_bb(color);
        let heavy = self.role_bb(Role::Pawn) | self.role_bb(Role::Rook) | self.role_bb(Role::Queen);
        if (ours & heavy).nonempty() {
            return false;
        }
        if (ours & self.role_bb(Role::Knight)).nonempty() {
            // A lone knight mates only with help from enemy pieces other than queens.
            let their_helpers = self.color_bb(!color) - self.role_bb(Role::King) - self.role_bb(Role::Queen);
            return ours.count() <= 2 && their_helpers.is_empty();
        }
        if (ours & self.role_bb(Role::Bishop)).nonempty() {
            let bishops = self.role_bb(Role::Bishop);
            let same_colour = (bishops & Bitboard::DARK).is_empty() || (bishops & Bitboard::LIGHT).is_empty();
            return same_colour && self.role_bb(Role::Pawn).is_empty() && self.role_bb(Role::Knight).is_empty();
        }
        true
    }

    /// True if neither side can mate.
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL.into_iter().all(|c| self.has_insufficient_material(c))
    }

    /// The outcome decided by this position alone (mate, stalemate, material, 75 moves).
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            return Some(if self.in_check() {
                Outcome { winner: Some(!self.side_to_move()), termination: Termination::Checkmate }
            } else {
                Outcome { winner: None, termination: Termination::Stalemate }
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome { winner: None, termination: Termination::InsufficientMaterial });
        }
        if self.halfmove_clock() >= 150 {
            return Some(Outcome { winner: None, termination: Termination::SeventyFiveMoves });
        }
        None
    }
}

/// A game: a starting position and the moves played, with make/unmake.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from `start`.
    pub fn new(start: Position) -> Game {
        Game { positions: vec![start], moves: Vec::new() }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always holds its start position")
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position from the start to the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays a legal move; returns an error (and changes nothing) if it is illegal.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        let pos = self.position();
        if !pos.is_legal(m) {
            return Err(MoveError::Illegal(pos.to_uci(m)));
        }
        self.make(m);
        Ok(())
    }

    /// Plays a move known to be legal (make).
    pub fn make(&mut self, m: Move) {
        let next = self.position().play(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Takes back the last move (unmake); returns it, or `None` at the start.
    pub fn unmake(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// How many times the current position has occurred, counting this one.
    /// Only positions since the last capture or pawn move can repeat.
    pub fn repetition_count(&self) -> usize {
        let cur = self.position();
        let window = (cur.halfmove_clock() as usize).min(self.positions.len() - 1);
        self.positions[self.positions.len() - 1 - window..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|p| p.key() == cur.key() && same_position(p, cur))
            .count()
    }

    /// The outcome, if the game is over by rule; with `claim_draw` also the
    /// draws a player may claim (threefold repetition, 50 moves).
    pub fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        let pos = self.position();
        if let Some(o) = pos.outcome() {
            if o.termination != Termination::SeventyFiveMoves || !pos.is_checkmate() {
                return Some(o);
            }
        }
        let reps = self.repetition_count();
        if reps >= 5 {
            return Some(Outcome { winner: None, termination: Termination::FivefoldRepetition });
        }
        if claim_draw {
            if pos.halfmove_clock() >= 100 {
                return Some(Outcome { winner: None, termination: Termination::FiftyMoves });
            }
            if reps >= 3 {
                return Some(Outcome { winner: None, termination: Termination::ThreefoldRepetition });
            }
        }
        None
    }

    /// The moves in SAN, numbered (`1. e4 e5 2. Nf3`).
    pub fn san_line(&self) -> String {
        san_line(self.start(), &self.moves)
    }
}

/// Writes `moves` from `start` as numbered SAN (`1. e4 e5 2. Nf3`, or `3... Nc6`).
pub fn san_line(start: &Position, moves: &[Move]) -> String {
    let mut out = String::new();
    let mut pos = start.clone();
    for (i, &m) in moves.iter().enumerate() {
        if pos.side_to_move() == Color::White {
            out.push_str(&format!("{}. ", pos.fullmove_number()));
        } else if i == 0 {
            out.push_str(&format!("{}... ", pos.fullmove_number()));
        }
        out.push_str(&pos.san(m));
        out.push(' ');
        pos = pos.play(m);
    }
    out.trim_end().to_string()
}

fn same_position(a: &Position, b: &Position) -> bool {
    a.by_role == b.by_role
        && a.by_color == b.by_color
        && a.side_to_move() == b.side_to_move()
        && a.castling() == b.castling()
        && a.ep_square() == b.ep_square()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threefold_by_knight_shuffle() {
        let mut g = Game::new(Position::startpos());
        for _ in 0..2 {
            for s in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                let m = g.position().parse_san(s).unwrap();
                g.play(m).unwrap();
            }
        }
        assert_eq!(g.repetition_count(), 3);
        assert_eq!(g.outcome(true).unwrap().termination, Termination::ThreefoldRepetition);
        assert_eq!(g.outcome(false), None);
        g.unmake();
        assert_eq!(g.repetition_count(), 2);
    }

    #[test]
    fn mates_and_material() {
        let mate = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
        assert!(mate.is_checkmate());
        assert_eq!(mate.outcome().unwrap().winner, Some(Color::Black));
        let stale = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(stale.is_stalemate());
        for (fen, dead) in [
            ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/4KN2/8/8 w - - 0 1", true),
            ("8/8/4kb2/8/8/4KB2/8/8 w - - 0 1", false),
            ("8/8/4k3/5b2/8/4KB2/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/4KNN1/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/4KR2/8/8 w - - 0 1", false),
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().is_insufficient_material(), dead, "{fen}");
        }
        let fifty = Position::from_fen("8/8/4k3/8/8/4KR2/8/8 w - - 100 80").unwrap();
        assert_eq!(Game::new(fifty).outcome(true).unwrap().termination, Termination::FiftyMoves);
    }
}
