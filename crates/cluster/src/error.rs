//! Why a distributed job ended early.

use std::fmt;
use std::time::Duration;

/// Where a rank runs: host and process id, for messages that must let a person find it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Peer {
    /// Host name.
    pub host: String,
    /// Process id.
    pub pid: u32,
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pid {} on {}", self.pid, self.host)
    }
}

fn peer_text(peer: &Option<Peer>) -> String {
    peer.as_ref().map_or_else(|| "not yet started".into(), Peer::to_string)
}

fn holding_text(holding: &Option<usize>) -> String {
    holding.map_or_else(|| "no work".into(), |i| format!("item {}", i + 1))
}

/// Why a distributed job ended before its work was done. Every variant's message names the
/// rank concerned, so the person at rank 0's terminal knows where to look.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// A rank sent nothing, not even a heartbeat, for longer than the rank timeout.
    #[error(
        "rank {rank} ({}) sent nothing for {:.0} s while it held {}: it has died or hangs; ending the job",
        peer_text(.peer), .waited.as_secs_f64(), holding_text(.holding)
    )]
    Silent {
        /// The silent rank.
        rank: usize,
        /// Where it runs, if it said.
        peer: Option<Peer>,
        /// How long it has been silent.
        waited: Duration,
        /// The item it held (from 0).
        holding: Option<usize>,
    },
    /// A rank's work failed in a way that ends the job.
    #[error("rank {rank} ({}) failed: {message}", peer_text(.peer))]
    Failed {
        /// The rank.
        rank: usize,
        /// Where it runs.
        peer: Option<Peer>,
        /// Why.
        message: String,
    },
    /// A message could not be sent or read.
    #[error("rank {rank}: {message}")]
    Protocol {
        /// The rank at the other end.
        rank: usize,
        /// What went wrong.
        message: String,
    },
    /// This worker heard nothing from rank 0 for longer than the rank timeout.
    #[error("rank 0 sent nothing for {:.0} s: it has died or hangs; leaving", .waited.as_secs_f64())]
    RootSilent {
        /// How long rank 0 has been silent.
        waited: Duration,
    },
    /// Rank 0 was told to stop (SIGTERM or Ctrl-C: mpirun sends SIGTERM to every rank when one
    /// of them dies).
    #[error(
        "stopped from outside after {done} of {total} items{}: mpirun ends every rank when one \
         dies or is interrupted (its notice names the rank); an unfinished run prints no report",
        out_text(.out)
    )]
    Stopped {
        /// Items finished.
        done: usize,
        /// Items in all.
        total: usize,
        /// `(rank, item)` for the items still out.
        out: Vec<(usize, usize)>,
    },
    /// Rank 0 of a cluster search was told to stop (SIGTERM or Ctrl-C), as mpirun does when a
    /// rank dies.
    #[error(
        "stopped from outside: mpirun ends every rank when one dies or is interrupted (its notice names the rank)"
    )]
    Interrupted,
}

fn out_text(out: &[(usize, usize)]) -> String {
    if out.is_empty() {
        return String::new();
    }
    let held: Vec<String> = out.iter().map(|(rank, item)| format!("item {} on rank {rank}", item + 1)).collect();
    format!(" ({} still out)", held.join(", "))
}
