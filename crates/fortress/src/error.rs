//! Errors of the fortress detector.

/// Everything that can go wrong while analysing.
#[derive(Debug, thiserror::Error)]
pub enum FortressError {
    /// The FEN could not be parsed.
    #[error("invalid FEN {fen:?}: {why}")]
    Fen {
        /// The text given.
        fen: String,
        /// Parser message.
        why: String,
    },
    /// The position is already over (no legal moves).
    #[error("the position has no legal moves (checkmate or stalemate)")]
    NoLegalMoves,
    /// An option is out of range.
    #[error("invalid option: {0}")]
    Config(String),
    /// The engine failed.
    #[error("engine error: {0}")]
    Engine(#[from] bastion_uci_client::UciError),
    /// The engine answered nothing usable.
    #[error("the engine reported no scored lines for {0}")]
    NoData(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// OS error.
        #[source]
        source: std::io::Error,
    },
    /// The labelled set is malformed.
    #[error("labelled set line {line}: {why}")]
    LabelledSet {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The caller's stop flag was set (see `Hooks::stop`).
    #[error("the analysis was stopped")]
    Stopped,
    /// Plotting failed.
    #[error("plot: {0}")]
    Plot(String),
}
