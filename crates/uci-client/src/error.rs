//! Typed errors for talking to UCI engines.

use std::fmt;
use std::io;
use std::process::ExitStatus;
use std::time::Duration;

/// What the client was waiting for when something went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Awaiting {
    /// `uciok` at the end of the `uci` handshake.
    UciOk,
    /// `readyok` in answer to `isready`.
    ReadyOk,
    /// `bestmove` at the end of a search.
    BestMove,
    /// The `bestmove` of an earlier search that timed out, which must be
    /// consumed before a new search can start.
    StaleBestMove,
    /// Nothing in particular: a command was being sent.
    Command,
    /// The process to exit after `quit`.
    Exit,
}

impl fmt::Display for Awaiting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Awaiting::UciOk => "uciok",
            Awaiting::ReadyOk => "readyok",
            Awaiting::BestMove => "bestmove",
            Awaiting::StaleBestMove => "the bestmove of a timed-out search",
            Awaiting::Command => "a command to be accepted",
            Awaiting::Exit => "the process to exit",
        })
    }
}

/// Everything that can go wrong while driving an engine.
#[derive(Debug, thiserror::Error)]
pub enum UciError {
    /// The engine command line was empty.
    #[error("empty engine command line")]
    EmptyCommand,
    /// The engine command line could not be split (e.g. an unclosed quote).
    #[error("cannot split engine command line {0:?}")]
    BadCommandLine(String),
    /// The engine process could not be started.
    #[error("failed to start engine {program:?}: {source}")]
    Spawn {
        /// Program that was started.
        program: String,
        /// Underlying OS error.
        #[source]
        source: io::Error,
    },
    /// The engine did not send the expected answer in time.
    ///
    /// For [`Awaiting::BestMove`] this is a time forfeit: the engine is
    /// still searching or hung, and should be restarted before reuse.
    #[error("engine did not send {awaiting} within {limit:?}")]
    Timeout {
        /// Answer that did not arrive.
        awaiting: Awaiting,
        /// Time limit that was exceeded.
        limit: Duration,
    },
    /// The engine closed its output or exited (crashed, or quit early).
    #[error("engine exited while the client waited for {awaiting} ({})", describe_status(.status))]
    EngineExited {
        /// Answer or action that was pending.
        awaiting: Awaiting,
        /// Exit status, if the process could be reaped.
        status: Option<ExitStatus>,
    },
    /// A command or argument would break the line-based protocol (line
    /// break, empty token, or whitespace inside a move).
    #[error("invalid UCI argument: {0}")]
    InvalidArgument(String),
    /// `go` was called while a search was still running.
    #[error("a search is already running")]
    SearchInProgress,
    /// Waiting for a result was requested but no search was started.
    #[error("no search is running")]
    NoSearch,
    /// Some other I/O error while talking to the engine.
    #[error("I/O error while talking to the engine: {0}")]
    Io(#[from] io::Error),
}

impl UciError {
    /// True for [`UciError::Timeout`], whatever was awaited.
    pub fn is_timeout(&self) -> bool {
        matches!(self, UciError::Timeout { .. })
    }

    /// True when the engine process is gone ([`UciError::EngineExited`]).
    pub fn is_crash(&self) -> bool {
        matches!(self, UciError::EngineExited { .. })
    }
}

/// Renders an optional exit status for error messages.
fn describe_status(status: &Option<ExitStatus>) -> String {
    match status {
        Some(s) => s.to_string(),
        None => "exit status unknown".to_owned(),
    }
}

/// Result alias for this crate.
pub type Result<T, E = UciError> = std::result::Result<T, E>;
