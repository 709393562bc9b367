//! Errors of the progressive-chess library.

use thiserror::Error;

/// Why an input or a request was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProgressiveError {
    /// The board part of a FEN is invalid.
    #[error("invalid FEN: {0}")]
    Fen(#[from] bastion_core::FenError),
    /// The progressive FEN fields are malformed.
    #[error("invalid progressive FEN: {0}")]
    BadFen(String),
    /// An impossible series state.
    #[error("invalid series: {0}")]
    BadSeries(String),
    /// An en-passant square with no double step behind it.
    #[error("invalid en-passant square {0}")]
    BadEnPassant(String),
    /// A move that is not legal in the position.
    #[error("illegal or unreadable move {0:?}")]
    IllegalMove(String),
    /// A malformed game record.
    #[error("game record: {0}")]
    BadRecord(String),
    /// An unknown or malformed option value.
    #[error("{0}")]
    BadOption(String),
    /// A line of a text file could not be read.
    #[error("line {line}: {reason}")]
    AtLine {
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The mate finder returned a series that does not mate (a bug, reported
    /// by the benchmark rather than counted).
    #[error("the finder returned a non-mate on line {0}")]
    NotAMate(usize),
}
