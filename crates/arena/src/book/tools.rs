//! What the book tools do with whole game files and positions: building from
//! PGN streams, a probe of one position with each move's share, and learning
//! from a file of finished games, each with a summary that prints as text.

use std::io::Read;

use bastion_core::{Color, Position};
use serde::Serialize;

use super::{polyglot_key, BookBuilder, LearnParams, PolyglotBook};
use crate::pgn::{self, PgnGame};

impl BookBuilder {
    /// Adds every finished game of a PGN stream and returns how many games
    /// were skipped for having no result. A game broken by an illegal move
    /// still counts up to its last legal move.
    pub fn add_pgn(&mut self, reader: impl Read) -> std::io::Result<u64> {
        let mut skipped = 0u64;
        pgn::for_each_game(reader, |g| {
            match g.winner() {
                // Only finished games say which moves were good.
                Some(w) => self.add_game(&g.start, &g.moves, w),
                None => skipped += 1,
            }
            true
        })?;
        Ok(skipped)
    }
}

/// The outcome of building a book.
#[derive(Debug, Clone, Serialize)]
pub struct BuildSummary {
    /// Finished games read.
    pub games: u64,
    /// Games skipped for having no result.
    pub skipped: u64,
    /// Entries in the book.
    pub entries: usize,
    /// Where the book was written.
    pub output: String,
}

impl BuildSummary {
    /// One line for a terminal.
    pub fn to_line(&self) -> String {
        format!(
            "{} {} ({} without result skipped) -> {} entries in {}",
            self.games,
            if self.games == 1 { "game" } else { "games" },
            self.skipped,
            self.entries,
            self.output
        )
    }
}

/// One book move of a probed position.
#[derive(Debug, Clone, Serialize)]
pub struct ProbedMove {
    /// The move in UCI notation.
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// Its weight in the book.
    pub weight: u16,
    /// Its share of the position's total weight, in percent.
    pub percent: f64,
}

/// The book moves of one position.
#[derive(Debug, Clone, Serialize)]
pub struct BookProbe {
    /// The position.
    pub fen: String,
    /// Its Polyglot key, 16 hexadecimal digits.
    pub key: String,
    /// The book moves in book order.
    pub moves: Vec<ProbedMove>,
}

impl BookProbe {
    /// Looks `pos` up in `book`.
    pub fn new(book: &PolyglotBook, pos: &Position) -> BookProbe {
        let found = book.probe(pos);
        let total: f64 = found.iter().map(|&(_, w)| f64::from(w)).sum();
        BookProbe {
            fen: pos.fen(),
            key: format!("{:016x}", polyglot_key(pos)),
            moves: found
                .iter()
                .map(|&(m, w)| ProbedMove {
                    uci: pos.to_uci(m),
                    san: pos.san(m),
                    weight: w,
                    percent: if total > 0.0 { 100.0 * f64::from(w) / total } else { 0.0 },
                })
                .collect(),
        }
    }

    /// The position and key, then one line per book move.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}  key {}\n", self.fen, self.key);
        if self.moves.is_empty() {
            out.push_str("no book moves\n");
        }
        for m in &self.moves {
            out.push_str(&format!("{:<8} {:<6} weight {:>5} ({:.1}%)\n", m.san, m.uci, m.weight, m.percent));
        }
        out
    }
}

/// What learning from a file of games changed.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LearnSummary {
    /// Games in the file.
    pub games: usize,
    /// Finished games the engine played, learned from.
    pub learned: usize,
    /// Entries whose weight went up.
    pub raised: usize,
    /// Entries whose weight went down.
    pub lowered: usize,
    /// New entries.
    pub added: usize,
    /// Entries in the book afterwards.
    pub entries: usize,
}

impl LearnSummary {
    /// One line for a terminal.
    pub fn to_line(&self) -> String {
        format!(
            "learned from {}/{} games: {} raised, {} lowered, {} added; book has {} entries",
            self.learned, self.games, self.raised, self.lowered, self.added, self.entries
        )
    }
}

impl PolyglotBook {
    /// Learns from every finished game of `games` that the engine named
    /// `engine_name` (in the White or Black tag) played; see [`PolyglotBook::learn`].
    pub fn learn_games(&mut self, games: &[PgnGame], engine_name: &str, params: &LearnParams) -> LearnSummary {
        let mut s = LearnSummary { games: games.len(), ..LearnSummary::default() };
        for g in games {
            let learner = if g.header("White") == Some(engine_name) {
                Color::White
            } else if g.header("Black") == Some(engine_name) {
                Color::Black
            } else {
                continue;
            };
            let Some(winner) = g.winner() else { continue };
            let r = self.learn(&g.start, &g.moves, learner, winner, params);
            s.raised += r.raised;
            s.lowered += r.lowered;
            s.added += r.added;
            s.learned += 1;
        }
        s.entries = self.len();
        s
    }
}
