//! A progressive game: the moves by turns, the outcome (mate, progressive
//! stalemate, the 10-turn rule, threefold repetition of series-start
//! positions), turn notation (`3.Nf3 exd5 Bb5+`) and a PGN-like record.

use crate::error::ProgressiveError;
use crate::rules::Rules;
use crate::series::{SeriesPosition, Status};
use bastion_core::{Color, Move};
use std::fmt::Write as _;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum GameEnd {
    /// The loser was mated at the start of its series.
    Checkmate,
    /// A side had no legal move inside its series.
    Stalemate,
    /// Ten turns without a capture or pawn move.
    TenTurnRule,
    /// The same series-start position for the third time.
    Repetition,
    /// Stopped by the caller (turn limit, resignation).
    Adjudicated,
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub end: GameEnd,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn text(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Writes one series as `n.m1 m2 …`, with `+`/`#` on the last move as due.
pub fn series_text(start: &SeriesPosition, moves: &[Move]) -> String {
    let mut s = format!("{}.", start.turn());
    let mut p = start.clone();
    for (i, &m) in moves.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&p.move_text(m));
        p = p.play_unchecked(m);
    }
    s
}

/// The moves of one series in UCI notation (`e2e4`), played from `start`.
pub fn series_uci(start: &SeriesPosition, moves: &[Move]) -> Vec<String> {
    let mut p = start.clone();
    moves
        .iter()
        .map(|&m| {
            let s = p.board().to_uci(m);
            p = p.play_unchecked(m);
            s
        })
        .collect()
}

/// A move token without its turn number: `3.Nf3` → `Nf3` (`e4` stays `e4`).
pub fn strip_turn_number(token: &str) -> &str {
    token.split_once('.').map_or(token, |(n, m)| if n.chars().all(|c| c.is_ascii_digit()) { m } else { token })
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    start: SeriesPosition,
    turns: Vec<Vec<Move>>,
    current: SeriesPosition,
    series_start: SeriesPosition,
    start_keys: Vec<u64>,
    result: Option<GameResult>,
}

impl Game {
    /// A new game from the standard start.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(SeriesPosition::startpos(rules))
    }

    /// A game from a given position (the start of a series or inside one).
    pub fn from_position(start: SeriesPosition) -> Game {
        let mut g = Game {
            start: start.clone(),
            turns: vec![Vec::new()],
            current: start.clone(),
            series_start: start.clone(),
            start_keys: vec![start.board_key()],
            result: None,
        };
        g.update_result();
        g
    }

    /// The starting position.
    pub fn start(&self) -> &SeriesPosition {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &SeriesPosition {
        &self.current
    }

    /// The position at the start of the current series.
    pub fn series_start(&self) -> &SeriesPosition {
        &self.series_start
    }

    /// The moves by turns (the last entry is the series in progress, maybe empty).
    pub fn turns(&self) -> &[Vec<Move>] {
        &self.turns
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Ends the game by decision of the caller (turn limit, resignation).
    pub fn adjudicate(&mut self, winner: Option<Color>) {
        if self.result.is_none() {
            self.result = Some(GameResult { winner, end: GameEnd::Adjudicated });
        }
    }

    fn update_result(&mut self) {
        let side = self.current.side_to_move();
        self.result = match self.current.status() {
            Status::Checkmate => Some(GameResult { winner: Some(!side), end: GameEnd::Checkmate }),
            Status::Stalemate => Some(GameResult { winner: None, end: GameEnd::Stalemate }),
            Status::TenTurnRule => Some(GameResult { winner: None, end: GameEnd::TenTurnRule }),
            Status::Ongoing => {
                let key = self.current.board_key();
                if self.current.played() == 0 && self.start_keys.iter().filter(|&&k| k == key).count() >= 3 {
                    Some(GameResult { winner: None, end: GameEnd::Repetition })
                } else {
                    None
                }
            }
        };
    }

    /// Plays one legal move of the current series.
    pub fn play(&mut self, m: Move) -> Result<(), ProgressiveError> {
        if self.result.is_some() {
            return Err(ProgressiveError::IllegalMove(format!(
                "{} (the game is over)",
                self.current.board().to_uci(m)
            )));
        }
        let next = self.current.play(m)?;
        self.turns.last_mut().expect("turn list is never empty").push(m);
        self.current = next;
        if self.current.played() == 0 {
            self.turns.push(Vec::new());
            self.series_start = self.current.clone();
            self.start_keys.push(self.current.board_key());
        }
        self.update_result();
        Ok(())
    }

    /// Plays a whole series (checked move by move; nothing is played on error).
    pub fn play_series(&mut self, moves: &[Move]) -> Result<(), ProgressiveError> {
        let mut g = self.clone();
        for &m in moves {
            g.play(m)?;
        }
        *self = g;
        Ok(())
    }

    /// Plays a move given as text (SAN, long algebraic or UCI).
    pub fn play_text(&mut self, text: &str) -> Result<Move, ProgressiveError> {
        let m = self.current.parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// The moves in turn notation: `1.e4 2.d5 Nf6 3.Nf3 exd5 Bb5+`.
    pub fn notation(&self) -> String {
        let mut out = String::new();
        let mut p = self.start.clone();
        for moves in &self.turns {
            if moves.is_empty() {
                continue;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&series_text(&p, moves));
            for &m in moves {
                p = p.play_unchecked(m);
            }
        }
        out
    }

    /// The PGN-like record: tags, then the moves by turns and the result.
    pub fn record(&self, tags: &[(&str, String)]) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "[Variant \"Progressive\"]");
        let _ = writeln!(s, "[Rules \"{}\"]", self.start.rules());
        if self.start != SeriesPosition::startpos(self.start.rules()) {
            let _ = writeln!(s, "[FEN \"{}\"]", self.start.fen());
        }
        for (k, v) in tags {
            let _ = writeln!(s, "[{k} \"{}\"]", v.replace('"', "'"));
        }
        let result = self.result.map_or("*", |r| r.text());
        let _ = writeln!(s, "[Result \"{result}\"]");
        if let Some(r) = self.result {
            let _ = writeln!(s, "[Termination \"{:?}\"]", r.end);
        }
        s.push('\n');
        // Wrap lines at turn boundaries, roughly 80 columns.
        let mut line = String::new();
        for token in self.notation().split(' ').chain(std::iter::once(result)) {
            if !line.is_empty() && line.len() + token.len() + 1 > 80 {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(token);
        }
        s.push_str(&line);
        s.push('\n');
        s
    }

    /// Loads a record written by [`Game::record`] (or by hand in the same form):
    /// optional `[Tag "value"]` lines, then `n.` turn numbers and moves. Every
    /// turn must start where the previous series ended.
    pub fn from_record(text: &str) -> Result<Game, ProgressiveError> {
        let mut rules = Rules::Italian;
        let mut fen = None;
        let mut movetext = String::new();
        for line in text.lines() {
            let l = line.trim();
            if let Some(tag) = l.strip_prefix('[') {
                let tag = tag.trim_end_matches(']');
                let (name, value) =
                    tag.split_once(' ').ok_or_else(|| ProgressiveError::BadRecord(format!("bad tag line {l:?}")))?;
                let value = value.trim().trim_matches('"');
                match name {
                    "Rules" => rules = value.parse()?,
                    "FEN" => fen = Some(value.to_string()),
                    _ => {}
                }
            } else if !l.starts_with('%') && !l.starts_with(';') {
                movetext.push_str(l);
                movetext.push(' ');
            }
        }
        let start = match fen {
            Some(f) => SeriesPosition::from_fen(&f, None, rules)?,
            None => SeriesPosition::startpos(rules),
        };
        let mut game = Game::from_position(start);
        let mut moved = false;
        for raw in movetext.split_whitespace() {
            if matches!(raw, "1-0" | "0-1" | "1/2-1/2" | "*") {
                break;
            }
            let mut token = raw;
            // A turn number `n.`, possibly glued to the first move (`3.Nf3`).
            if let Some(dot) = token.find('.') {
                let num = &token[..dot];
                if num.chars().all(|c| c.is_ascii_digit()) && !num.is_empty() {
                    let n: u32 =
                        num.parse().map_err(|_| ProgressiveError::BadRecord(format!("bad turn number {raw:?}")))?;
                    // A record may start inside a series (FEN with moves played).
                    if game.position().played() != 0 && moved {
                        return Err(ProgressiveError::BadRecord(format!(
                            "turn {n} starts before turn {} is complete",
                            game.position().turn()
                        )));
                    }
                    if n != game.position().turn() {
                        return Err(ProgressiveError::BadRecord(format!(
                            "expected turn {}, found {n}",
                            game.position().turn()
                        )));
                    }
                    token = token[dot..].trim_start_matches('.');
                }
            }
            if token.is_empty() {
                continue;
            }
            game.play_text(token)
                .map_err(|e| ProgressiveError::BadRecord(format!("turn {}: {e}", game.position().turn())))?;
            moved = true;
        }
        Ok(game)
    }
}
