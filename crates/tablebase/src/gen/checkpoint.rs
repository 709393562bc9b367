//! Checkpoints of one slice's generation between two levels, so that a generation that is
//! stopped (a rank killed, the machine gone) resumes at its last checkpoint instead of
//! starting again.
//!
//! A checkpoint holds everything the level loop reads: the working arrays (values, move
//! counters; undecided positions' best exits are in their values), the en-passant nodes,
//! the frontier of the next level, the later levels'
//! schedule and the traffic counted so far. It is taken at the top of a level, after the
//! level's scheduled decisions were merged into the frontier, so a resumed run enters the
//! loop exactly where the stopped one was; the generator being order-independent, the table
//! is the same bytes. Each slice writes its own file (`STEM.rRofN.LLEVEL.ckpt`), atomically
//! (a temporary file, fsync, rename), ending with a CRC-32 of its contents; the previous
//! level's file is removed only once every slice has written the new one, so that the
//! slices always share at least one complete level.

use super::{EpNode, Gen};
use crate::exchange::LevelTraffic;
use crate::value::DRAW;
use bastion_core::Color;
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::time::Duration;

/// Version 2: no exit array (a position's best exit lives in its value cell while undecided).
const MAGIC: &[u8; 8] = b"BASTCKP2";

/// Where and how often a generation leaves checkpoints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointPlan {
    /// Directory of the checkpoint files (for several hosts, a shared file system).
    pub dir: PathBuf,
    /// The files' common prefix, naming the table (`KQRKR.dtm`): a checkpoint is only
    /// resumed by a run of the same table on the same number of slices.
    pub stem: String,
    /// The least time between two checkpoints (zero: one before every level).
    pub every: Duration,
}

impl CheckpointPlan {
    /// The file of `rank` of `ranks` at `level`.
    pub(crate) fn path(&self, rank: usize, ranks: usize, level: u16) -> PathBuf {
        self.dir.join(format!("{}.r{rank}of{ranks}.L{level}.ckpt", self.stem))
    }

    /// The levels `rank` of `ranks` has a checkpoint file for (names only; contents are
    /// checked when read).
    pub(crate) fn levels_on_disk(&self, rank: usize, ranks: usize) -> Vec<u16> {
        let prefix = format!("{}.r{rank}of{ranks}.L", self.stem);
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|name| name.strip_prefix(&prefix)?.strip_suffix(".ckpt")?.parse().ok())
            .collect()
    }

    /// Removes `rank`'s files of levels other than `keep`.
    pub(crate) fn remove_others(&self, rank: usize, ranks: usize, keep: u16) {
        for level in self.levels_on_disk(rank, ranks) {
            if level != keep {
                let _ = std::fs::remove_file(self.path(rank, ranks, level));
            }
        }
    }

    /// Removes every checkpoint file of this table, whatever the number of slices that wrote
    /// it (once the table is written, none is needed).
    pub fn remove_all(&self) {
        let prefix = format!("{}.r", self.stem);
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        for name in entries.filter_map(|e| e.ok()?.file_name().into_string().ok()) {
            if name.starts_with(&prefix) && (name.ends_with(".ckpt") || name.ends_with(".ckpt.tmp")) {
                let _ = std::fs::remove_file(self.dir.join(name));
            }
        }
    }
}

/// The level loop's own state at a checkpoint (the rest is in [`Gen`]).
pub(crate) struct LoopState {
    pub level: u16,
    pub frontier: Vec<u64>,
    pub later: BTreeMap<u16, Vec<u64>>,
    pub traffic: Vec<LevelTraffic>,
}

/// The level loop's state as [`save`] reads it, borrowed.
#[derive(Clone, Copy)]
pub(crate) struct StateRef<'a> {
    pub level: u16,
    pub frontier: &'a [u64],
    pub later: &'a BTreeMap<u16, Vec<u64>>,
    pub traffic: &'a [LevelTraffic],
}

/// A slice's arrays, en-passant nodes and loop state: what a checkpoint restores, or
/// ([`Restored::fresh`]) what a generation starts from.
pub(crate) struct Restored {
    pub values: [Vec<AtomicU16>; 2],
    pub counters: [Vec<AtomicU8>; 2],
    pub ep_nodes: Vec<EpNode>,
    pub ep_by_pos: HashMap<u64, Vec<u32>>,
    pub state: LoopState,
}

impl Restored {
    /// The state of a slice of `n` indices before its initialisation: every position a draw,
    /// no counters, exits or en-passant nodes, level 0.
    pub(crate) fn fresh(n: usize) -> Restored {
        let draws = || (0..n).map(|_| AtomicU16::new(DRAW)).collect::<Vec<_>>();
        let zeros = || (0..n).map(|_| AtomicU8::new(0)).collect::<Vec<_>>();
        Restored {
            values: [draws(), draws()],
            counters: [zeros(), zeros()],
            ep_nodes: Vec::new(),
            ep_by_pos: HashMap::new(),
            state: LoopState { level: 0, frontier: Vec::new(), later: BTreeMap::new(), traffic: Vec::new() },
        }
    }
}

/// The identity of a slice's checkpoint: a file is only read back by the same slice of the
/// same table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SliceId {
    pub rank: usize,
    pub ranks: usize,
    pub size: u64,
    pub lo: u64,
    pub hi: u64,
}

/// Writes `g`'s slice and the loop's `state` as `id`'s checkpoint at `state.level`.
pub(crate) fn save(plan: &CheckpointPlan, id: SliceId, g: &Gen<'_>, state: StateRef<'_>) -> io::Result<PathBuf> {
    let path = plan.path(id.rank, id.ranks, state.level);
    let tmp = path.with_extension("ckpt.tmp");
    let file = File::create(&tmp)?;
    let mut w = Sink { out: BufWriter::with_capacity(1 << 20, file), crc: crc32fast::Hasher::new() };
    w.bytes(MAGIC)?;
    w.header(plan, id, state.level)?;
    for side in 0..2 {
        w.u16s(&g.values[side])?;
        w.u8s(&g.counters[side])?;
    }
    w.u64(g.ep_nodes.len() as u64)?;
    for e in &g.ep_nodes {
        w.u64(u64::from(e.q_side == Color::Black))?;
        w.u64(e.q_idx)?;
        w.u64(u64::from(e.exit))?;
        w.u64(u64::from(e.value.load(Relaxed)))?;
    }
    // Sorted, so that the same state writes the same bytes.
    let mut by_pos: Vec<_> = g.ep_by_pos.iter().collect();
    by_pos.sort_unstable_by_key(|(k, _)| **k);
    w.u64(by_pos.len() as u64)?;
    for (stored, ids) in by_pos {
        w.u64(*stored)?;
        w.words(&ids.iter().map(|&i| u64::from(i)).collect::<Vec<_>>())?;
    }
    w.words(state.frontier)?;
    w.u64(state.later.len() as u64)?;
    for (level, nodes) in state.later {
        w.u64(u64::from(*level))?;
        w.words(nodes)?;
    }
    w.u64(state.traffic.len() as u64)?;
    for t in state.traffic {
        w.u64(u64::from(t.level))?;
        w.u64(t.updates)?;
        w.u64(t.messages)?;
    }
    let crc = w.crc.clone().finalize();
    w.out.write_all(&crc.to_le_bytes())?;
    let file = w.out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Reads `id`'s checkpoint at `level`, checking that it belongs to this slice of this table
/// and that its checksum is right.
pub(crate) fn load(plan: &CheckpointPlan, id: SliceId, level: u16) -> io::Result<Restored> {
    let path = plan.path(id.rank, id.ranks, level);
    let mut r = Source { inp: BufReader::with_capacity(1 << 20, File::open(&path)?), crc: crc32fast::Hasher::new() };
    let mut magic = [0u8; 8];
    r.bytes(&mut magic)?;
    if &magic != MAGIC {
        return Err(invalid(&path, "not a checkpoint of this version"));
    }
    let mut expected = Sink { out: Vec::new(), crc: crc32fast::Hasher::new() };
    expected.header(plan, id, level)?;
    let mut header = vec![0u8; expected.out.len()];
    r.bytes(&mut header)?;
    if header != expected.out {
        return Err(invalid(&path, "written by another table, slice or level"));
    }
    let n = (id.hi - id.lo) as usize;
    let mut values: [Vec<AtomicU16>; 2] = [Vec::new(), Vec::new()];
    let mut counters: [Vec<AtomicU8>; 2] = [Vec::new(), Vec::new()];
    for side in 0..2 {
        values[side] = r.u16s(n)?;
        counters[side] = r.u8s(n)?;
    }
    let mut ep_nodes = Vec::new();
    for _ in 0..r.len(&path)? {
        let q_side = if r.u64()? == 1 { Color::Black } else { Color::White };
        let q_idx = r.u64()?;
        let exit = r.u64()? as u16;
        let value = AtomicU16::new(r.u64()? as u16);
        ep_nodes.push(EpNode { q_side, q_idx, exit, value });
    }
    let mut ep_by_pos = HashMap::new();
    for _ in 0..r.len(&path)? {
        let stored = r.u64()?;
        let ids = r.words(&path)?.into_iter().map(|i| i as u32).collect();
        ep_by_pos.insert(stored, ids);
    }
    let frontier = r.words(&path)?;
    let mut later = BTreeMap::new();
    for _ in 0..r.len(&path)? {
        let at = r.u64()? as u16;
        later.insert(at, r.words(&path)?);
    }
    let mut traffic = Vec::new();
    for _ in 0..r.len(&path)? {
        traffic.push(LevelTraffic { level: r.u64()? as u16, updates: r.u64()?, messages: r.u64()? });
    }
    let computed = r.crc.clone().finalize();
    let mut stored = [0u8; 4];
    r.inp.read_exact(&mut stored)?;
    if u32::from_le_bytes(stored) != computed {
        return Err(invalid(&path, "checksum mismatch (the file is damaged)"));
    }
    if r.inp.read(&mut [0u8; 1])? != 0 {
        return Err(invalid(&path, "trailing bytes"));
    }
    Ok(Restored { values, counters, ep_nodes, ep_by_pos, state: LoopState { level, frontier, later, traffic } })
}

fn invalid(path: &Path, why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{}: {why}", path.display()))
}

/// A writer that keeps a CRC-32 of what it wrote.
struct Sink<W: Write> {
    out: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Sink<W> {
    fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.crc.update(b);
        self.out.write_all(b)
    }
    fn u64(&mut self, v: u64) -> io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }
    fn header(&mut self, plan: &CheckpointPlan, id: SliceId, level: u16) -> io::Result<()> {
        self.u64(plan.stem.len() as u64)?;
        self.bytes(plan.stem.as_bytes())?;
        for v in [id.rank as u64, id.ranks as u64, id.size, id.lo, id.hi, u64::from(level)] {
            self.u64(v)?;
        }
        Ok(())
    }
    fn words(&mut self, words: &[u64]) -> io::Result<()> {
        self.u64(words.len() as u64)?;
        for chunk in words.chunks(1 << 16) {
            let buf: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
            self.bytes(&buf)?;
        }
        Ok(())
    }
    fn u16s(&mut self, cells: &[AtomicU16]) -> io::Result<()> {
        for chunk in cells.chunks(1 << 16) {
            let buf: Vec<u8> = chunk.iter().flat_map(|c| c.load(Relaxed).to_le_bytes()).collect();
            self.bytes(&buf)?;
        }
        Ok(())
    }
    fn u8s(&mut self, cells: &[AtomicU8]) -> io::Result<()> {
        for chunk in cells.chunks(1 << 16) {
            let buf: Vec<u8> = chunk.iter().map(|c| c.load(Relaxed)).collect();
            self.bytes(&buf)?;
        }
        Ok(())
    }
}

/// A reader that keeps a CRC-32 of what it read.
struct Source<R: Read> {
    inp: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Source<R> {
    fn bytes(&mut self, b: &mut [u8]) -> io::Result<()> {
        self.inp.read_exact(b)?;
        self.crc.update(b);
        Ok(())
    }
    fn u64(&mut self) -> io::Result<u64> {
        let mut b = [0u8; 8];
        self.bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    /// A count, bounded so that a damaged file cannot ask for an absurd allocation.
    fn len(&mut self, path: &Path) -> io::Result<usize> {
        let n = self.u64()?;
        if n > 1 << 40 {
            return Err(invalid(path, "a count beyond any table"));
        }
        Ok(n as usize)
    }
    fn words(&mut self, path: &Path) -> io::Result<Vec<u64>> {
        let n = self.len(path)?;
        let mut out = Vec::with_capacity(n.min(1 << 24));
        let mut buf = vec![0u8; 8 << 16];
        let mut left = n;
        while left > 0 {
            let k = left.min(1 << 16);
            self.bytes(&mut buf[..8 * k])?;
            out.extend(buf[..8 * k].chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))));
            left -= k;
        }
        Ok(out)
    }
    fn u16s(&mut self, n: usize) -> io::Result<Vec<AtomicU16>> {
        let mut out = Vec::with_capacity(n);
        let mut buf = vec![0u8; 2 << 16];
        let mut left = n;
        while left > 0 {
            let k = left.min(1 << 16);
            self.bytes(&mut buf[..2 * k])?;
            out.extend(buf[..2 * k].chunks_exact(2).map(|c| AtomicU16::new(u16::from_le_bytes([c[0], c[1]]))));
            left -= k;
        }
        Ok(out)
    }
    fn u8s(&mut self, n: usize) -> io::Result<Vec<AtomicU8>> {
        let mut out = Vec::with_capacity(n);
        let mut buf = vec![0u8; 1 << 16];
        let mut left = n;
        while left > 0 {
            let k = left.min(1 << 16);
            self.bytes(&mut buf[..k])?;
            out.extend(buf[..k].iter().map(|&b| AtomicU8::new(b)));
            left -= k;
        }
        Ok(out)
    }
}
