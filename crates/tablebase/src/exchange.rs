//! How the slices of one distributed generation reach each other, and what a slice's run
//! gives: the types the generator ([`crate::gen`]) needs to run as one slice of several.
//! [`crate::partition`] puts them to use and re-exports them.

use crate::table::TableData;
use std::sync::{Arc, Barrier, Mutex};

/// Why an exchange between slices failed (a slice is gone or did not answer).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ExchangeError(pub String);

/// How the slices of one generation reach each other. Every slice calls the same methods in
/// the same order (they are collective operations).
pub trait Exchange {
    /// This slice, from 0.
    fn rank(&self) -> usize;
    /// The number of slices.
    fn ranks(&self) -> usize;
    /// Sends `outgoing[r]` to slice `r` (one vector per slice, this slice's own included) and
    /// returns what each slice sent to this one, in slice order.
    fn all_to_all(&mut self, outgoing: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, ExchangeError>;
    /// Told where the generation is before each level's work (for progress and messages).
    fn at_level(&mut self, _level: u16) {}

    /// The sum of `value` over all slices, known to every slice.
    fn sum(&mut self, value: u64) -> Result<u64, ExchangeError> {
        let n = self.ranks();
        let got = self.all_to_all(vec![vec![value]; n])?;
        Ok(got.iter().flatten().sum())
    }

    /// Slice 0's `value`, known to every slice.
    fn broadcast(&mut self, value: u64) -> Result<u64, ExchangeError> {
        let n = self.ranks();
        let out = if self.rank() == 0 { vec![vec![value]; n] } else { vec![Vec::new(); n] };
        let got = self.all_to_all(out)?;
        got.first().and_then(|v| v.first()).copied().ok_or_else(|| ExchangeError("slice 0 sent nothing".into()))
    }

    /// Every slice's `words`, in slice order, at slice 0 (empty elsewhere).
    fn gather(&mut self, words: Vec<u64>) -> Result<Vec<Vec<u64>>, ExchangeError> {
        let n = self.ranks();
        let mut out = vec![Vec::new(); n];
        out[0] = words;
        self.all_to_all(out)
    }
}

/// The first index of slice `rank` of `ranks` in an index space of `size` (slice `ranks` is
/// `size`): contiguous slices whose sizes differ by at most one.
pub fn slice_start(size: u64, ranks: usize, rank: usize) -> u64 {
    (u128::from(size) * rank as u128 / ranks as u128) as u64
}

/// The whole job as one slice: what the single-process generator runs on.
#[derive(Debug, Default)]
pub struct Solo;

impl Exchange for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn ranks(&self) -> usize {
        1
    }
    fn all_to_all(&mut self, outgoing: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, ExchangeError> {
        Ok(outgoing)
    }
}

struct LocalShared {
    /// `boxes[to][from]`: what `from` sent to `to` in the current exchange.
    boxes: Vec<Mutex<Vec<Vec<u64>>>>,
    barrier: Barrier,
}

/// One slice of a generation whose slices are threads of one process.
pub struct LocalExchange {
    rank: usize,
    shared: Arc<LocalShared>,
}

/// `ranks` connected local slices, slice 0 first; each must run on its own thread.
pub fn local_exchanges(ranks: usize) -> Vec<LocalExchange> {
    let shared = Arc::new(LocalShared {
        boxes: (0..ranks).map(|_| Mutex::new(vec![Vec::new(); ranks])).collect(),
        barrier: Barrier::new(ranks),
    });
    (0..ranks).map(|rank| LocalExchange { rank, shared: shared.clone() }).collect()
}

impl Exchange for LocalExchange {
    fn rank(&self) -> usize {
        self.rank
    }
    fn ranks(&self) -> usize {
        self.shared.boxes.len()
    }
    fn all_to_all(&mut self, outgoing: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, ExchangeError> {
        let n = self.ranks();
        if outgoing.len() != n {
            return Err(ExchangeError(format!("{} batches for {n} slices", outgoing.len())));
        }
        let lock = |to: usize| self.shared.boxes[to].lock().map_err(|_| ExchangeError("a slice panicked".into()));
        for (to, words) in outgoing.into_iter().enumerate() {
            lock(to)?[self.rank] = words;
        }
        // Everyone has written before anyone reads, and read before anyone writes again.
        self.shared.barrier.wait();
        let got = std::mem::replace(&mut *lock(self.rank)?, vec![Vec::new(); n]);
        self.shared.barrier.wait();
        Ok(got)
    }
}

/// Updates exchanged at one level, summed over the slices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LevelTraffic {
    /// The level.
    pub level: u16,
    /// Updates sent to another slice (8 bytes each: side and index; the level and the kind of
    /// update are the same for all of a level's updates, so they are not sent).
    pub updates: u64,
    /// Non-empty batches, one per (sender, receiver) pair that had updates.
    pub messages: u64,
}

impl LevelTraffic {
    /// Payload bytes.
    pub fn bytes(&self) -> u64 {
        self.updates * 8
    }
}

/// What slice 0 holds of the finished table.
pub enum SliceTable {
    /// The whole table in memory (one slice).
    Values(TableData),
    /// The file's bytes, each slice having compressed its own blocks (several slices): no
    /// slice ever holds the whole table's values.
    File {
        /// The file, byte for byte what [`crate::format::encode_table`] makes of the table.
        bytes: Vec<u8>,
        /// Longest distance in plies.
        max_plies: u16,
    },
}

impl SliceTable {
    /// Longest distance in plies.
    pub fn max_plies(&self) -> u16 {
        match self {
            SliceTable::Values(t) => t.max_plies(),
            SliceTable::File { max_plies, .. } => *max_plies,
        }
    }

    /// The table file's bytes.
    pub fn file_bytes(&self) -> std::borrow::Cow<'_, [u8]> {
        match self {
            SliceTable::Values(t) => crate::format::encode_table(t).into(),
            SliceTable::File { bytes, .. } => bytes.into(),
        }
    }
}

/// What one slice's run of the generator gives.
pub struct SliceOutcome {
    /// The table, on slice 0 only.
    pub table: Option<SliceTable>,
    /// Indices per side of the whole table.
    pub size: u64,
    /// Levels run (the longest distance plus one).
    pub levels: u16,
    /// En-passant nodes, all slices together.
    pub ep_nodes: usize,
    /// Bytes of this slice's working arrays.
    pub slice_bytes: u64,
    /// This slice's indices per side.
    pub slice_indices: u64,
    /// Per level, the updates between slices (summed over the slices on slice 0; this slice's
    /// own elsewhere).
    pub traffic: Vec<LevelTraffic>,
    /// The level whose checkpoint the run resumed from, when it did.
    pub resumed_at: Option<u16>,
}

/// How much a slice does between two meetings with the others (several slices only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceLimits {
    /// Indices per side initialised between two meetings, so that a slice that has died or
    /// hangs is noticed within a part's time.
    pub init_part: usize,
    /// Frontier positions taken back between two exchanges of updates: at most about 128
    /// updates each, so a batch's buffers stay near a gigabyte at worst, whatever the table.
    pub frontier_batch: usize,
}

impl Default for SliceLimits {
    fn default() -> SliceLimits {
        SliceLimits { init_part: 1 << 22, frontier_batch: 1 << 20 }
    }
}
