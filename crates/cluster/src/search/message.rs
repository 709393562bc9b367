//! The messages of a cluster search, JSON-encoded with [`crate::protocol::encode`]. They are a
//! UCI line or a search's answer each: a few hundred bytes.

use serde::{Deserialize, Serialize};

/// From rank 0 to the other ranks.
#[derive(Debug, Serialize, Deserialize)]
pub enum ToRank {
    /// A UCI command every rank applies as rank 0 does: `position`, `setoption`,
    /// `ucinewgame`, `ponderhit`.
    Command(String),
    /// Start search `id` with this `go` line.
    Go {
        /// The search's number; answers carry it, so a late answer to an old search is ignored.
        id: u64,
        /// The `go` command as the GUI sent it.
        line: String,
    },
    /// Stop search `id` and answer at once.
    Stop {
        /// The search to stop.
        id: u64,
    },
    /// Rank 0 is alive.
    Heartbeat,
    /// Leave (the GUI sent `quit`).
    Quit,
}

/// From a rank to rank 0.
#[derive(Debug, Serialize, Deserialize)]
pub enum ToRoot {
    /// The rank has started: where it runs.
    Hello {
        /// Host name.
        host: String,
        /// Process id.
        pid: u32,
    },
    /// The rank is alive.
    Heartbeat,
    /// The rank has acted on `quit` and leaves.
    Bye,
    /// The rank's answer to search `id`.
    Answer {
        /// The search.
        id: u64,
        /// The last `info` line of its first line with a usable score, if any.
        info: Option<String>,
        /// Its `bestmove` line.
        bestmove: String,
    },
}
