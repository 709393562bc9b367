//! Sharing transposition-table entries between the ranks while they search.
//!
//! Each rank's engine collects the entries its search stores at the share depth or deeper
//! ([`TtShare`]). Every turn of the rank's main loop (about a millisecond) takes them; a full
//! batch ([`Entries::MAX`]) goes to every other rank at once, and what is left goes out once
//! [`SHARE_INTERVAL`] has passed since the last batch. A rank stores what it receives in its
//! own table with the normal replacement rule, during a search only (so a `ucinewgame` that
//! clears the table is never followed by entries of the old game).
//!
//! Flow control keeps a send from waiting on a rank that does not read (stopped, hung). A
//! batch is small enough for MPI to copy it out and return at once ([`Entries::MAX`]), but
//! into buffers that only the receiver frees by reading, and once they run out a send
//! waits. So each rank sends a peer at most [`WINDOW`] batches that the peer has not
//! acknowledged; every batch carries how many the sender has received from its addressee,
//! and a rank that has received half a window more than it has acknowledged sends an
//! acknowledgement without entries. Batches beyond a closed window are dropped for that
//! peer: the entries only speed the search up.

use super::message::Entries;
use crate::transport::Transport;
use bastion_engine::tt::{PackedEntry, TtShare};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest a collected entry waits before it is sent in a batch that is not full.
pub const SHARE_INTERVAL: Duration = Duration::from_millis(5);

/// The most batches a rank sends a peer that the peer has not acknowledged.
pub const WINDOW: u64 = 8;

/// Batches to and from one other rank.
#[derive(Clone, Copy, Debug, Default)]
struct Flow {
    /// Non-empty batches sent to it.
    sent: u64,
    /// How many of them it has acknowledged.
    acked: u64,
    /// Non-empty batches received from it.
    received: u64,
    /// The `received` last sent to it.
    reported: u64,
}

/// One rank's side of the sharing.
pub(super) struct Exchange {
    share: Arc<TtShare>,
    rank: usize,
    flows: Vec<Flow>,
    /// Entries taken from the engine, not yet sent.
    outgoing: Vec<PackedEntry>,
    /// When the last batch went out.
    flushed: Instant,
}

impl Exchange {
    /// Rank `rank` of `size`, sharing its engine's entries through `share`.
    pub(super) fn new(share: Arc<TtShare>, rank: usize, size: usize) -> Exchange {
        Exchange { share, rank, flows: vec![Flow::default(); size], outgoing: Vec::new(), flushed: Instant::now() }
    }

    /// One turn of the rank's main loop: while `searching`, sends what its engine has
    /// collected and the acknowledgements that are due to the ranks `open` allows. Batches
    /// that cannot be delivered are dropped: a rank that is gone shows itself through the
    /// heartbeats.
    pub(super) fn turn(&mut self, transport: &dyn Transport, searching: bool, open: &dyn Fn(usize) -> bool) {
        if !searching {
            return;
        }
        self.outgoing.extend(self.share.take());
        let due = self.flushed.elapsed() >= SHARE_INTERVAL;
        while self.outgoing.len() >= Entries::MAX || (due && !self.outgoing.is_empty()) {
            let n = self.outgoing.len().min(Entries::MAX);
            let batch: Vec<PackedEntry> = self.outgoing.drain(..n).collect();
            for peer in self.peers(open) {
                let flow = &mut self.flows[peer];
                if flow.sent - flow.acked < WINDOW {
                    flow.sent += 1;
                    Self::send(transport, peer, flow, batch.clone());
                }
            }
            self.flushed = Instant::now();
        }
        for peer in self.peers(open) {
            let flow = &mut self.flows[peer];
            if flow.received - flow.reported >= WINDOW / 2 {
                Self::send(transport, peer, flow, Vec::new());
            }
        }
    }

    /// How many entries this rank's engine has given to be sent, and how many from other
    /// ranks it has stored, since the start.
    pub(super) fn totals(&self) -> (u64, u64) {
        (self.share.taken(), self.share.imported())
    }

    /// The other ranks that may be sent to.
    fn peers(&self, open: &dyn Fn(usize) -> bool) -> Vec<usize> {
        (0..self.flows.len()).filter(|&r| r != self.rank && open(r)).collect()
    }

    fn send(transport: &dyn Transport, peer: usize, flow: &mut Flow, entries: Vec<PackedEntry>) {
        flow.reported = flow.received;
        let _ = transport.send(peer, &Entries { received: flow.received, entries }.encode());
    }

    /// A batch from rank `from`: its acknowledgement counts, and its entries go into the
    /// engine's table while `searching`.
    pub(super) fn receive(&mut self, from: usize, batch: &Entries, searching: bool) {
        let Some(flow) = self.flows.get_mut(from) else { return };
        // More than was sent can only come from a damaged message: never open the window wider.
        flow.acked = flow.acked.max(batch.received.min(flow.sent));
        if !batch.entries.is_empty() {
            flow.received += 1;
            if searching {
                self.share.import(&batch.entries);
            }
        }
    }
}
