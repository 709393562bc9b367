//! [`Score`]: a search result as engines report it over UCI: centipawns or
//! moves to mate, from the side to move's view.
//!
//! Bastion's engine produces it, the UCI client reads it from other engines,
//! and the arena, fortress detector and web app consume it.

use std::fmt;
use std::str::FromStr;

/// A reported score: centipawns or moves to mate, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Heuristic value in centipawns.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when the side to move gets mated.
    Mate(i32),
}

impl Score {
    /// The score in UCI syntax: `cp 34` or `mate -3`.
    pub fn to_uci(self) -> String {
        match self {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(m) => format!("mate {m}"),
        }
    }

    /// The score of the UCI `score` kind `cp` or `mate` with value `value`.
    pub fn from_uci(kind: &str, value: i32) -> Option<Score> {
        match kind {
            "cp" => Some(Score::Cp(value)),
            "mate" => Some(Score::Mate(value)),
            _ => None,
        }
    }

    /// A comparable value: mates beyond every centipawn score, shorter mates better.
    pub fn ordinal(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 1_000_000 - m,
            Score::Mate(m) => -1_000_000 - m,
        }
    }

    /// The mate distance in moves, if this is a mate score.
    pub fn mate(self) -> Option<i32> {
        match self {
            Score::Mate(m) => Some(m),
            Score::Cp(_) => None,
        }
    }
}

/// Human-readable form: `+0.35`, `-1.20`, `#3`, `#-2`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(c) => write!(f, "{:+.2}", c as f64 / 100.0),
            Score::Mate(m) => write!(f, "#{m}"),
        }
    }
}

/// Why a text is not a UCI score.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a UCI score (cp N or mate N): {0:?}")]
pub struct ParseScoreError(pub String);

/// Parses the UCI form that [`Score::to_uci`] writes: `cp 34`, `mate -3`.
impl FromStr for Score {
    type Err = ParseScoreError;

    fn from_str(s: &str) -> Result<Score, ParseScoreError> {
        let bad = || ParseScoreError(s.to_string());
        let mut words = s.split_whitespace();
        let (Some(kind), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad());
        };
        Score::from_uci(kind, value.parse().map_err(|_| bad())?).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_text_round_trips() {
        for s in [Score::Cp(34), Score::Cp(-7), Score::Mate(3), Score::Mate(-2), Score::Mate(0)] {
            assert_eq!(s.to_uci().parse::<Score>(), Ok(s));
        }
        assert_eq!(Score::Cp(-31).to_uci(), "cp -31");
        for bad in ["", "cp", "cp x", "pawns 3", "mate 1 2"] {
            assert!(bad.parse::<Score>().is_err(), "{bad}");
        }
    }

    #[test]
    fn order_and_display() {
        assert!(Score::Mate(2).ordinal() > Score::Mate(3).ordinal());
        assert!(Score::Mate(-2).ordinal() < Score::Mate(-3).ordinal());
        assert!(Score::Mate(30).ordinal() > Score::Cp(20_000).ordinal());
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Mate(-2).to_string(), "#-2");
        assert_eq!(Score::Mate(4).mate(), Some(4));
    }
}
