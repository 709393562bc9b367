//! How ranks reach each other: byte messages between numbered ranks.

use std::sync::mpsc::{channel, Receiver, Sender};

/// One rank's view of the job: its number, the number of ranks, and byte messages.
///
/// Implemented by `crate::world::MpiWorld` (feature `mpi`) and, between threads of one
/// process, by [`LocalTransport`].
pub trait Transport {
    /// This rank, from 0.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// The machine this rank runs on, for messages.
    fn host(&self) -> String;
    /// Sends `bytes` to rank `to`; `Err` when the message cannot be delivered.
    fn send(&self, to: usize, bytes: &[u8]) -> Result<(), String>;
    /// A message that has arrived, with its sender's rank; `None` at once when there is none.
    fn try_receive(&self) -> Option<(usize, Vec<u8>)>;
}

/// A rank of a job whose ranks are threads of one process, joined by channels.
#[derive(Debug)]
pub struct LocalTransport {
    rank: usize,
    inbox: Receiver<(usize, Vec<u8>)>,
    outboxes: Vec<Sender<(usize, Vec<u8>)>>,
}

/// `size` connected local ranks, rank 0 first. Dropping one is how a test kills a rank:
/// messages to it then fail, and it sends nothing more.
pub fn local_world(size: usize) -> Vec<LocalTransport> {
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..size).map(|_| channel()).unzip();
    receivers
        .into_iter()
        .enumerate()
        .map(|(rank, inbox)| LocalTransport { rank, inbox, outboxes: senders.clone() })
        .collect()
}

impl Transport for LocalTransport {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.outboxes.len()
    }

    fn host(&self) -> String {
        "local".into()
    }

    fn send(&self, to: usize, bytes: &[u8]) -> Result<(), String> {
        let outbox = self.outboxes.get(to).ok_or_else(|| format!("no rank {to}"))?;
        outbox.send((self.rank, bytes.to_vec())).map_err(|_| format!("rank {to} is gone"))
    }

    fn try_receive(&self) -> Option<(usize, Vec<u8>)> {
        self.inbox.try_recv().ok()
    }
}
