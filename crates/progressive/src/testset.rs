//! The mate test set: positions with a mate in the current series taken
//! from self-play games (the seed's chapter 4.3.1), and its benchmark.
//!
//! File format, one position per line: `<progressive FEN>;<mating moves in UCI>`.
//! Lines starting with `#` are comments.

use crate::error::ProgressiveError;
use crate::mate::{exhaustive_mate, find_mate, MateOptions, Variant};
use crate::rules::Rules;
use crate::series::SeriesPosition;
use bastion_core::Move;
use std::time::Duration;

/// One test position with a known mate.
#[derive(Clone, Debug)]
pub struct MateCase {
    /// The position (start of the mating series).
    pub position: SeriesPosition,
    /// A mate, replayed and confirmed when loaded.
    pub mate: Vec<Move>,
}

impl MateCase {
    /// The line for the test-set file.
    pub fn line(&self) -> String {
        let moves: Vec<String> = {
            let mut p = self.position.clone();
            self.mate
                .iter()
                .map(|&m| {
                    let s = p.board().to_uci(m);
                    p = p.play_unchecked(m);
                    s
                })
                .collect()
        };
        format!("{};{}", self.position.fen(), moves.join(" "))
    }

    /// Reads a line and confirms that its moves are a legal mate.
    pub fn parse(line: &str, rules: Rules) -> Result<MateCase, ProgressiveError> {
        let (fen, moves) =
            line.split_once(';').ok_or_else(|| ProgressiveError::BadRecord(format!("no ';' in {line:?}")))?;
        let position = SeriesPosition::from_fen(fen.trim(), None, rules)?;
        let mut p = position.clone();
        let mut mate = Vec::new();
        for t in moves.split_whitespace() {
            let m = p.parse_move(t)?;
            mate.push(m);
            p = p.play_unchecked(m);
        }
        if mate.len() as u32 != position.moves_left() || !p.is_checkmate() {
            return Err(ProgressiveError::BadRecord(format!("the moves do not mate: {line}")));
        }
        Ok(MateCase { position, mate })
    }
}

/// Loads a test-set file (every mate is confirmed by replay).
pub fn load(text: &str, rules: Rules) -> Result<Vec<MateCase>, ProgressiveError> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| MateCase::parse(l, rules))
        .collect()
}

/// Looks for a mate with several methods, so the test set is not made only
/// of the mates the default search finds fastest: exhaustive search for
/// short series, then A* and best-first with the coverage heuristic.
pub fn scan_for_mate(pos: &SeriesPosition, budget: Duration) -> Option<Vec<Move>> {
    if pos.moves_left() <= 5 {
        let r = exhaustive_mate(pos, budget / 2, None);
        match r.outcome {
            crate::MateOutcome::Found => return r.moves,
            crate::MateOutcome::NoMate => return None,
            crate::MateOutcome::Unknown => {}
        }
    }
    let a = find_mate(pos, &MateOptions { time_limit: budget / 2, ..MateOptions::default() });
    if a.found() {
        return a.moves;
    }
    let b =
        find_mate(pos, &MateOptions { time_limit: budget / 2, variant: Variant::BestFirst, ..MateOptions::default() });
    b.moves
}
