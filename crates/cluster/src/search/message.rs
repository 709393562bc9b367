//! The messages of a cluster search: JSON-encoded with [`crate::protocol::encode`], a UCI line
//! or a search's answer each (a few hundred bytes), and the binary [`Entries`], batches of
//! shared table entries (at most 249 bytes).

use bastion_engine::tt::PackedEntry;
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

/// A batch of shared transposition-table entries, sent between any two ranks while they
/// search (see [`super::share`]). Binary, not JSON: an entry is 16 bytes instead of about 40.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entries {
    /// How many non-empty batches the sender has received from the addressee so far: the
    /// acknowledgement that reopens the addressee's window ([`super::share`]).
    pub received: u64,
    /// The entries, at most [`Entries::MAX`]; none in a message that only acknowledges.
    pub entries: Vec<PackedEntry>,
}

impl Entries {
    /// The first byte of an encoded batch. Every JSON message starts with `{` or `"`, so the
    /// two kinds never mix up.
    const MARK: u8 = 0;
    /// The mark and `received`.
    const HEADER: usize = 9;
    /// Entries per batch: 15 make 249 bytes. Open MPI (4.1) sends a message of at most 256
    /// bytes "inline": `MPI_Send` copies it out and returns at once. A larger one, between
    /// ranks on one machine, waits until the receiver's next call into MPI unless it fits
    /// a small buffer shared with the receiver, which a busy receiver leaves full; with
    /// batches of 56 and of 240 entries the main thread of every rank spent most of its
    /// time in `MPI_Send`, and took that time from the search on its core.
    pub const MAX: usize = 15;

    /// The message's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(Self::HEADER + self.entries.len() * PackedEntry::BYTES);
        bytes.push(Self::MARK);
        bytes.extend_from_slice(&self.received.to_le_bytes());
        for entry in &self.entries {
            bytes.extend_from_slice(&entry.to_bytes());
        }
        bytes
    }

    /// The batch in `bytes`; `None` when they are not a batch (but a JSON message), `Some(Err)`
    /// when they are a damaged one.
    pub fn decode(bytes: &[u8]) -> Option<Result<Entries, String>> {
        let (&mark, rest) = bytes.split_first()?;
        if mark != Self::MARK {
            return None;
        }
        let damaged = || Err(format!("damaged batch of table entries ({} bytes)", bytes.len()));
        let Some((received, body)) = rest.split_first_chunk::<8>() else { return Some(damaged()) };
        if body.len() % PackedEntry::BYTES != 0 || body.len() / PackedEntry::BYTES > Self::MAX {
            return Some(damaged());
        }
        let entries = body
            .chunks_exact(PackedEntry::BYTES)
            .map(|chunk| PackedEntry::from_bytes(chunk.try_into().expect("chunks of an entry's size")))
            .collect();
        Some(Ok(Entries { received: u64::from_le_bytes(*received), entries }))
    }
}
