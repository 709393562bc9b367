//! Lazy-cluster search: `mpirun -np N bastion cluster uci`.
//!
//! Every rank runs the engine's own UCI session ([`UciSession`]) on the same commands, so
//! every rank searches the same root with its own engine, and rank 0 speaks UCI exactly as
//! `bastion uci` does: its session's output goes to the GUI unchanged, except that its
//! `bestmove` line is held back. When rank 0's search ends (its own limits and time
//! management decide), the other ranks are told to stop; each answers with its `bestmove`
//! and the last `info` line behind it, and rank 0 picks the move by a vote weighted by depth
//! and score ([`vote::pick`], as Stockfish's Lazy SMP picks among its threads). It prints
//! `bestmove` once every rank has answered or [`SearchOptions::answer_wait`] has passed, so a
//! slow or hung rank delays a move by at most that much.
//!
//! Rank 0 reads the GUI from a thread of its own; only its main thread calls MPI. It forwards
//! `position`, `setoption`, `ucinewgame`, `go`, `stop`, `ponderhit` and `quit`; `uci`,
//! `isready`, `d` and `eval` are answered by its own session alone. Ranks that stay silent
//! for longer than [`SearchOptions::rank_timeout`] are left out of later votes (rank 0 says so
//! in an `info string`); a rank that dies ends the whole job through mpirun.
//!
//! Transposition-table entries are shared when the sessions share their tables
//! ([`UciSession::with_tt_share`](bastion_engine::protocol::UciSession::with_tt_share)):
//! while they search, the ranks send each other the entries stored at the share depth or
//! deeper, in batches, and store what they receive ([`share`]).

pub mod message;
mod root;
pub mod share;
mod tap;
pub mod vote;
mod worker;

pub use root::{serve_root, RootEnd};
pub use tap::{Feed, Tap};
pub use worker::serve_worker;

use std::time::Duration;

/// The engine session of one rank, built by the caller (who wires in tablebases, book and
/// mate prover as `bastion uci` does) around the [`Tap`] that carries its output.
pub type UciSession = bastion_engine::protocol::UciSession<Tap>;

/// Settings of a cluster search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// How often every rank tells the others that it is alive.
    pub heartbeat: Duration,
    /// How long a rank may be silent before rank 0 leaves it out (or a worker gives up on
    /// rank 0).
    pub rank_timeout: Duration,
    /// How long rank 0 waits for the other ranks' answers once its own search has ended.
    pub answer_wait: Duration,
    /// Print each vote to standard error (the ranks' moves, depths and scores, and the pick).
    pub log_votes: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            heartbeat: Duration::from_secs(1),
            rank_timeout: Duration::from_secs(30),
            answer_wait: Duration::from_millis(50),
            log_votes: false,
        }
    }
}

/// How often the ranks' main loops look for messages and output. A millisecond keeps `stop`
/// prompt and costs no core.
const POLL: Duration = Duration::from_millis(1);
