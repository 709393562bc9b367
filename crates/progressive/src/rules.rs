//! The two rule sets of Progressive chess.

use crate::error::ProgressiveError;
use std::fmt;
use std::str::FromStr;

/// Which rules decide what a check does inside a series.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Rules {
    /// Check only with the last move of a series (the default, as in Janko 2015, §2.1).
    #[default]
    Italian,
    /// Check with any move; it ends the series at once.
    Scottish,
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rules::Italian => "Italian",
            Rules::Scottish => "Scottish",
        })
    }
}

impl FromStr for Rules {
    type Err = ProgressiveError;
    fn from_str(s: &str) -> Result<Rules, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "italian" | "i" => Ok(Rules::Italian),
            "scottish" | "s" => Ok(Rules::Scottish),
            _ => Err(ProgressiveError::BadOption(format!("unknown rules {s:?} (italian or scottish)"))),
        }
    }
}
