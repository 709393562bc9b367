//! The retrograde generator: Algorithm B (Bratko 1978, §2) with move counters.
//!
//! 1. *Initialisation* (one pass over all indices, both sides to move):
//!    illegal and non-canonical indices are marked and cost nothing more;
//!    checkmates are level 0. Moves that leave the ending (captures,
//!    promotions) are valued at once from the finished sub-tables and the best
//!    of them is kept as the position's *exit value*; the other moves are
//!    counted, each distinct successor once (symmetric successors coincide).
//! 2. *Levels*: the positions decided at level `L` are taken back with
//!    un-moves of the side that moved last. A predecessor of a lost position
//!    is won at `L + 1`. A predecessor of a won position loses one from its
//!    counter; at zero all its moves inside the ending lose, and it is lost at
//!    `L + 1` (or later, if a capture holds out longer) unless an exit draws
//!    or wins. Exit wins are scheduled at their own level. Positions never
//!    decided are draws.
//!
//! A double step that allows an en-passant capture does not lead to a stored
//! position: it leads to an *en-passant node* whose value is the better, for
//! the side to move, of the stored position without the right and the
//! en-passant captures; it is decided as soon as that position is.
//!
//! The metric is the sub-tables' ([`TableSet::metric`]): for DTM an exit's
//! value is the smaller ending's distance to mate plus one ply, for DTC
//! (distance to conversion) it is a conversion valued from the smaller
//! ending's win/draw/loss alone ([`Metric::exit_value`]); the levels are the same.
//! For DTZ (distance to zeroing) a pawn move is an exit too, valued from the
//! win/draw/loss of the same ending's position after it, which a finished DTM
//! table of the ending gives ([`generate_in`]): pawn moves are then no edges of
//! the retrograde graph, and no en-passant nodes are needed.
//!
//! Levels are processed in parallel (rayon); decisions are compare-and-swap
//! on atomics and every writer of a cell writes the same value, so the result
//! does not depend on the number of threads or on timing.
//!
//! The index space can be split into slices that run as separate processes
//! ([`crate::partition`]): each holds its part of the working arrays, and the
//! predecessors that fall in another slice's part are sent there once a level.
//! A level's updates are all of one kind, so the result is the same again.

mod checkpoint;

pub use checkpoint::CheckpointPlan;

use crate::exchange::{
    slice_start, Exchange, ExchangeError, LevelTraffic, SliceLimits, SliceOutcome, SliceTable, Solo,
};
use crate::format::{assemble, compress_block, value_width, TableShape, BLOCK_VALUES};
use crate::index::Indexer;
use crate::material::Material;
use crate::metric::Metric;
use crate::table::{Codes, TableData, TableSet};
use crate::value::{Dtm, DRAW, ILLEGAL};
use bastion_core::{attacks, Bitboard, Color, Move, Position, Role, Square};
use checkpoint::{LoopState, Restored, SliceId, StateRef};
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

const EP_FLAG: u64 = 1 << 63;
/// More than the moves (or un-moves) inside a six-man ending can number
/// (four queens and a king: 4 × 27 + 8 = 116, which the move counters' `u8` holds too).
const MAX_EDGES: usize = 128;
const BLACK_FLAG: u64 = 1 << 62;
const IDX_MASK: u64 = (1 << 62) - 1;

/// En-passant nodes' exit codes: none, or 1 + value code.
const EXIT_NONE: u16 = 0;

/// Bytes of the working arrays per index and side to move: the value cell (2, holding the
/// best exit while undecided) and the move counter (1).
pub(crate) const WORKING_BYTES_PER_INDEX: u64 = 3;

/// A value cell of an undecided position that has a best exit: this flag with the exit's
/// value code. Keeping the exit there, not in an array of its own, saves 2 bytes per index
/// and side to move: the working arrays are 3 bytes per index and side.
const PENDING: u16 = 0x8000;

/// True if a value cell is undecided (a draw so far, with or without a best exit).
#[inline]
fn undecided(cell: u16) -> bool {
    cell == DRAW || cell & PENDING != 0
}

/// The best exit an undecided value cell holds.
#[inline]
fn pending_exit(cell: u16) -> Option<Dtm> {
    if cell & PENDING != 0 {
        Dtm::from_code(cell & !PENDING)
    } else {
        None
    }
}

/// Decides `cell` at `code` if it is still undecided; true if this call decided it.
#[inline]
fn decide(cell: &AtomicU16, code: u16) -> bool {
    let mut now = cell.load(Relaxed);
    while undecided(now) {
        match cell.compare_exchange_weak(now, code, Relaxed, Relaxed) {
            Ok(_) => return true,
            Err(seen) => now = seen,
        }
    }
    false
}

#[inline]
fn node(side: Color, idx: u64) -> u64 {
    idx | if side == Color::Black { BLACK_FLAG } else { 0 }
}

#[inline]
fn side_of(node: u64) -> Color {
    if node & BLACK_FLAG != 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// True if two different moves (or un-moves) of the position with men on
/// `sq` can lead to positions with the same canonical index. That needs a
/// symmetry other than the identity that fixes a king that stays put, so a
/// king on a long diagonal in a pawnless ending (the left-right mirror fixes
/// no square). Elsewhere counting moves equals counting distinct successors.
#[inline]
fn may_collide(ix: &Indexer, sq: &[u8]) -> bool {
    const LONG_DIAGONALS: u64 = 0x8142_2418_1824_4281;
    ix.scheme() == crate::index::Scheme::Pawnless
        && (LONG_DIAGONALS >> sq[0] & 1 != 0 || LONG_DIAGONALS >> sq[1] & 1 != 0)
}

#[inline]
fn level_code(level: u16) -> u16 {
    level + 2
}

/// What initialising one chunk yields: checkmates, scheduled decisions and
/// double steps into en-passant nodes.
type InitPart = (Vec<u64>, Vec<(u16, u64)>, Vec<(Color, u64, Position)>);

struct EpNode {
    /// The position that double-stepped into it.
    q_side: Color,
    q_idx: u64,
    /// Best value of the en-passant captures for the side to move (exit code).
    exit: u16,
    value: AtomicU16,
}

/// Statistics of one generation.
#[derive(Clone, Debug, Default)]
pub struct GenReport {
    /// Indices per side.
    pub size: u64,
    /// Number of levels (the longest distance to mate in plies, plus one).
    pub levels: u16,
    /// Bytes allocated for the working arrays.
    pub work_bytes: u64,
    /// En-passant nodes created.
    pub ep_nodes: usize,
}

struct Gen<'a> {
    ix: &'a Indexer,
    metric: Metric,
    /// This slice's indices: `lo..hi` (the whole table in one process).
    lo: u64,
    hi: u64,
    /// Every slice's first index, then the size.
    bounds: &'a [u64],
    values: [Vec<AtomicU16>; 2],
    counters: [Vec<AtomicU8>; 2],
    ep_nodes: Vec<EpNode>,
    ep_by_pos: HashMap<u64, Vec<u32>>,
}

/// Output of processing a chunk: next-level nodes, later-level schedules and, when the table
/// is split into slices, predecessors that belong to other slices (`remote[slice]`, empty
/// until the first).
#[derive(Default)]
struct Out {
    next: Vec<u64>,
    later: Vec<(u16, u64)>,
    remote: Vec<Vec<u64>>,
}

fn exit_dtm(code: u16) -> Option<Dtm> {
    if code == EXIT_NONE {
        None
    } else {
        Dtm::from_code(code - 1)
    }
}

/// Generates the table of `material` (normalised) in the metric of `subs`, which
/// must hold every table of [`Material::children`]. `progress` counts indices
/// initialised. For DTZ use [`generate_in`].
pub fn generate(material: &Material, subs: &TableSet, progress: &ProgressBar) -> (TableData, GenReport) {
    generate_in(material, subs.metric(), subs, progress)
}

/// Generates the table of `material` (normalised) in `metric`, valuing exits
/// from `exit_tables`: for DTM, the DTM tables of every [`Material::children`]; for DTC,
/// those tables in any metric (only their win/draw/loss counts); for DTZ, as for
/// DTC plus the table of `material` itself (pawn moves stay in the ending), so a
/// DTZ table is the second pass after the ending's DTM table.
///
/// # Panics
/// If `exit_tables` lacks a table it needs, or holds tables of another metric than DTM
/// for a DTM generation.
pub fn generate_in(
    material: &Material,
    metric: Metric,
    exit_tables: &TableSet,
    progress: &ProgressBar,
) -> (TableData, GenReport) {
    let outcome = generate_sliced(material, metric, exit_tables, progress, &mut Solo, SliceLimits::default())
        .expect("one slice exchanges nothing");
    let report = GenReport::of(&outcome);
    match outcome.table {
        Some(SliceTable::Values(t)) => (t, report),
        _ => unreachable!("the only slice is slice 0 and keeps its values"),
    }
}

impl GenReport {
    /// The statistics of a one-slice run.
    pub fn of(outcome: &SliceOutcome) -> GenReport {
        GenReport {
            size: outcome.size,
            levels: outcome.levels,
            work_bytes: outcome.slice_bytes,
            ep_nodes: outcome.ep_nodes,
        }
    }
}

/// Generates one slice of `material`'s table in `metric`, exchanging updates through `comm`
/// (every slice calls this with the same arguments but its own `comm`; see
/// [`crate::partition`]). The table, identical to [`generate_in`]'s, is assembled on slice 0;
/// with [`Solo`] this is [`generate_in`]. Panics as [`generate_in`] does.
pub fn generate_sliced(
    material: &Material,
    metric: Metric,
    exit_tables: &TableSet,
    progress: &ProgressBar,
    comm: &mut dyn Exchange,
    limits: SliceLimits,
) -> Result<SliceOutcome, ExchangeError> {
    generate_checkpointed(material, metric, exit_tables, progress, comm, limits, None)
}

/// As [`generate_sliced`], leaving checkpoints as `plan` says and resuming from the latest
/// level every slice has one of (see [`CheckpointPlan`]): a run that was stopped goes on
/// where it was, and the table is the same. The checkpoint files stay when the generation
/// ends: the caller removes them ([`CheckpointPlan::remove_all`]) once the table is written.
pub fn generate_checkpointed(
    material: &Material,
    metric: Metric,
    exit_tables: &TableSet,
    progress: &ProgressBar,
    comm: &mut dyn Exchange,
    limits: SliceLimits,
    plan: Option<&CheckpointPlan>,
) -> Result<SliceOutcome, ExchangeError> {
    assert!(metric != Metric::Dtm || exit_tables.metric() == Metric::Dtm, "DTM exits need DTM sub-tables");
    assert!(
        metric != Metric::Dtz || !material.has_pawns() || exit_tables.contains(material),
        "a DTZ table with pawns needs the ending's own table for its pawn moves"
    );
    let ix = Indexer::new(material);
    let size = ix.size();
    let ranks = comm.ranks();
    let bounds: Vec<u64> = (0..=ranks).map(|r| slice_start(size, ranks, r)).collect();
    let (lo, hi) = (bounds[comm.rank()], bounds[comm.rank() + 1]);
    let n = (hi - lo) as usize;
    let id = SliceId { rank: comm.rank(), ranks, size, lo, hi };
    let restored = match plan {
        Some(plan) => resume(plan, id, comm, progress)?,
        None => None,
    };
    let resumed_at = restored.as_ref().map(|r| r.state.level);
    let r = restored.unwrap_or_else(|| Restored::fresh(n));
    let mut g = Gen {
        ix: &ix,
        metric,
        lo,
        hi,
        bounds: &bounds,
        values: r.values,
        counters: r.counters,
        ep_nodes: r.ep_nodes,
        ep_by_pos: r.ep_by_pos,
    };
    let LoopState { mut frontier, mut later, mut level, mut traffic } = r.state;
    progress.set_length(2 * n as u64);
    if resumed_at.is_none() {
        initialise(&mut g, exit_tables, progress, comm, limits, &mut frontier, &mut later)?;
    }

    // ---- levels ----
    let mut last_checkpoint = Instant::now();
    progress.set_position(0);
    loop {
        if let Some(list) = later.remove(&level) {
            for nd in list {
                if decide(g.cell(nd), level_code(level)) {
                    frontier.push(nd);
                }
            }
        }
        let idle = frontier.is_empty() && later.is_empty();
        // Slice 0's clock says when a checkpoint is due, so that all slices take it at the
        // same level (never at the level just resumed from: that one is on disk).
        let due_here = plan.is_some_and(|p| last_checkpoint.elapsed() >= p.every) && resumed_at != Some(level);
        // Slices agree on going on and on how many batches the level takes (the longest
        // frontier's): updates are exchanged after each batch, which bounds their buffers.
        let (go_on, batches, batch, due) = if ranks == 1 {
            (!idle, 1, frontier.len().max(1), due_here)
        } else {
            let all =
                comm.all_to_all(vec![vec![u64::from(!idle), frontier.len() as u64, u64::from(due_here)]; ranks])?;
            let longest = all.iter().filter_map(|w| w.get(1)).copied().max().unwrap_or(0) as usize;
            (
                all.iter().any(|w| w.first() == Some(&1)),
                longest.div_ceil(limits.frontier_batch.max(1)).max(1),
                limits.frontier_batch.max(1),
                all.first().and_then(|w| w.get(2)) == Some(&1),
            )
        };
        if !go_on {
            break;
        }
        if let (true, Some(plan)) = (due, plan) {
            let state = StateRef { level, frontier: &frontier, later: &later, traffic: &traffic };
            let saved = checkpoint::save(plan, id, &g, state);
            if let Err(e) = &saved {
                progress.println(format!("warning: checkpoint at level {level} not written: {e}"));
            }
            // The previous level's files go only once every slice has the new one.
            if comm.sum(u64::from(saved.is_err()))? == 0 {
                plan.remove_others(id.rank, ranks, level);
            }
            last_checkpoint = Instant::now();
        }
        comm.at_level(level);
        progress.set_message(format!("level {level}: {} positions", frontier.len()));
        let mut next = Vec::new();
        let mut sent = LevelTraffic { level, updates: 0, messages: 0 };
        for b in 0..batches {
            let part = &frontier[(b * batch).min(frontier.len())..((b + 1) * batch).min(frontier.len())];
            let outs: Vec<Out> = part
                .par_chunks(4096)
                .map(|chunk| {
                    let mut out = Out::default();
                    for &nd in chunk {
                        g.process(nd, level, &mut out);
                    }
                    progress.inc(chunk.len() as u64);
                    out
                })
                .collect();
            let mut remote = vec![Vec::new(); ranks];
            for o in outs {
                g.merge(o, level, &mut next, &mut later, &mut remote);
            }
            if ranks == 1 {
                continue;
            }
            // Predecessors in other slices: one batch per slice, applied there at this level.
            sent.updates += remote.iter().map(|b| b.len() as u64).sum::<u64>();
            sent.messages += remote.iter().filter(|b| !b.is_empty()).count() as u64;
            let received = comm.all_to_all(remote)?;
            let outs: Vec<Out> = received
                .par_iter()
                .flat_map(|batch| batch.par_chunks(4096))
                .map(|chunk| {
                    let mut out = Out::default();
                    for &nd in chunk {
                        g.apply(side_of(nd), nd & IDX_MASK, level, &mut out);
                    }
                    out
                })
                .collect();
            let mut none = vec![Vec::new(); ranks];
            for o in outs {
                g.merge(o, level, &mut next, &mut later, &mut none);
            }
            debug_assert!(none.iter().all(Vec::is_empty), "an update sent to the wrong slice");
        }
        if ranks > 1 {
            traffic.push(sent);
        }
        frontier = next;
        level += 1;
    }
    // Every level is at most the longest mate plus one: a level counter far
    // beyond that would mean a scheduling error.
    debug_assert!(level < 2000);

    let slice_bytes = n as u64 * 2 * WORKING_BYTES_PER_INDEX;
    let ep_local = g.ep_nodes.len() as u64;
    // The move counters and en-passant nodes go now, not at the end of the function (a
    // partial move would keep them): the values' conversion and, in slices, the compression
    // and gather follow, and the counters are a third of the working memory.
    let Gen { values, counters, ep_nodes, ep_by_pos, .. } = g;
    drop((counters, ep_nodes, ep_by_pos));
    // Positions never decided are draws, whatever exit they held.
    let [w, b] = values.map(|v| {
        v.into_iter().map(|c| c.into_inner()).map(|c| if c & PENDING != 0 { DRAW } else { c }).collect::<Vec<u16>>()
    });
    let (table, ep_nodes, traffic) = if ranks == 1 {
        let values = [Codes::from_wide(w), Codes::from_wide(b)];
        (Some(SliceTable::Values(TableData { indexer: ix.clone(), metric, values })), ep_local as usize, traffic)
    } else {
        let ep_nodes = comm.sum(ep_local)? as usize;
        let traffic = sum_traffic(comm, traffic)?;
        let table = compress_slices(comm, &bounds, [w, b], TableShape { indexer: &ix, metric, max_plies: 0 })?;
        (table, ep_nodes, traffic)
    };
    Ok(SliceOutcome { table, size, levels: level, ep_nodes, slice_bytes, slice_indices: n as u64, traffic, resumed_at })
}

/// Packs codes four to a word.
fn pack_codes(codes: &[u16]) -> Vec<u64> {
    codes.chunks(4).map(|c| c.iter().enumerate().fold(0u64, |w, (k, &v)| w | u64::from(v) << (16 * k))).collect()
}

/// The first `n` codes of words packed by [`pack_codes`].
fn unpack_codes(words: &[u64], n: usize) -> Result<Vec<u16>, ExchangeError> {
    if words.len() != n.div_ceil(4) {
        return Err(ExchangeError(format!("{} words of codes, not {}", words.len(), n.div_ceil(4))));
    }
    Ok((0..n).map(|k| (words[k / 4] >> (16 * (k % 4))) as u16).collect())
}

/// The file of a table generated by several slices, at slice 0 (`None` elsewhere).
///
/// Block `k` of a side (indices `k·B .. (k+1)·B`, B = [`BLOCK_VALUES`]) is compressed by the
/// slice that holds its first index. A slice whose first index is not a block's sends the
/// codes up to the next block boundary to the slice that holds that block's start (one
/// all-to-all a side); each slice compresses its blocks and slice 0 gathers the compressed
/// blocks and the longest distance and assembles the file. So no slice holds more than its
/// own codes and one block, slice 0 drops its codes before it gathers, and the compression
/// is shared; the bytes are
/// [`crate::format::encode_table`]'s, as the tests check.
fn compress_slices(
    comm: &mut dyn Exchange,
    bounds: &[u64],
    mine: [Vec<u16>; 2],
    shape: TableShape,
) -> Result<Option<SliceTable>, ExchangeError> {
    let ranks = comm.ranks();
    let me = comm.rank();
    let b = BLOCK_VALUES as u64;
    let size = bounds[ranks];
    // The codes of slice r that belong to a block begun by an earlier slice: `lo .. min(hi,
    // next boundary)`, sent to that slice (none if `lo` is a boundary or the slice is empty).
    let prefix = |r: usize| -> Option<(usize, u64, u64)> {
        let (lo, hi) = (bounds[r], bounds[r + 1]);
        (lo < hi && lo % b != 0).then(|| (owner(bounds, lo / b * b), lo, hi.min(lo.div_ceil(b) * b)))
    };
    // The longest distance: its width is the file's.
    let local_max = crate::value::longest_plies(mine.iter().flatten().copied());
    let all_max = comm.gather(vec![u64::from(local_max)])?;
    let max_plies = comm.broadcast(all_max.iter().flatten().copied().max().unwrap_or(0))? as u16;
    let width = value_width(max_plies);
    let (lo, hi) = (bounds[me], bounds[me + 1]);
    let mut gathered: Vec<Vec<Vec<u64>>> = Vec::with_capacity(2);
    for codes in &mine {
        let mut out = vec![Vec::new(); ranks];
        if let Some((to, p_lo, p_hi)) = prefix(me) {
            out[to] = pack_codes(&codes[..(p_hi - p_lo) as usize]);
        }
        let got = comm.all_to_all(out)?;
        // My blocks: those that start in my slice; the last may run on into later slices.
        let first = lo.div_ceil(b);
        let end = hi.div_ceil(b);
        let mut tail: Vec<u16> = Vec::new();
        if end > first && end * b > hi {
            let start = (end - 1) * b;
            tail.extend_from_slice(&codes[(start - lo) as usize..]);
            for (r, words) in got.iter().enumerate().skip(me + 1) {
                if let Some((_, p_lo, p_hi)) = prefix(r).filter(|&(to, ..)| to == me) {
                    tail.extend(unpack_codes(words, (p_hi - p_lo) as usize)?);
                }
            }
            if tail.len() as u64 != (end * b).min(size) - start {
                return Err(ExchangeError(format!("block {} of slice {me} is incomplete", end - 1)));
            }
        }
        let blocks: Vec<Vec<u8>> = (first..end)
            .into_par_iter()
            .map(|k| {
                let start = k * b;
                if (k + 1) * b > hi && !tail.is_empty() {
                    compress_block(tail.iter().copied(), width)
                } else {
                    let s = (start - lo) as usize;
                    compress_block(codes[s..s + BLOCK_VALUES].iter().copied(), width)
                }
            })
            .collect();
        // Sent as: the number of blocks, their lengths, then their bytes eight to a word.
        let mut words = vec![blocks.len() as u64];
        words.extend(blocks.iter().map(|c| c.len() as u64));
        let bytes: Vec<u8> = blocks.concat();
        words.extend(bytes.chunks(8).map(|c| c.iter().rev().fold(0u64, |w, &x| (w << 8) | u64::from(x))));
        gathered.push(comm.gather(words)?);
    }
    // Rank 0 keeps, from here on, only the compressed table: its own codes go now, and each
    // slice's words once they are read, so it holds the compressed blocks about twice at the
    // most (as they came and in the file), not on top of its slice.
    drop(mine);
    if me != 0 {
        return Ok(None);
    }
    let mut runs: Vec<(Vec<u8>, Vec<u64>)> = Vec::with_capacity(2 * ranks);
    for side in gathered {
        for (r, words) in side.into_iter().enumerate() {
            let bad = || ExchangeError(format!("slice {r} sent malformed blocks"));
            let n = *words.first().ok_or_else(bad)? as usize;
            let lens = words.get(1..1 + n).ok_or_else(bad)?.to_vec();
            let total: u64 = lens.iter().sum();
            let data = &words[1 + n..];
            if data.len() as u64 != total.div_ceil(8) {
                return Err(bad());
            }
            let mut bytes = Vec::with_capacity(8 * data.len());
            for w in data {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            bytes.truncate(total as usize);
            runs.push((bytes, lens));
        }
    }
    let mut blocks: Vec<&[u8]> = Vec::new();
    for (bytes, lens) in &runs {
        let mut at = 0;
        for &len in lens {
            blocks.push(&bytes[at..at + len as usize]);
            at += len as usize;
        }
    }
    let shape = TableShape { max_plies, ..shape };
    Ok(Some(SliceTable::File { bytes: assemble(shape, &blocks), max_plies }))
}

/// Initialisation of `g`'s slice (see the module's notes): mates into `frontier`, exit wins
/// and en-passant nodes' wins into `later`, en-passant nodes sent to their stored positions'
/// slices.
fn initialise(
    g: &mut Gen<'_>,
    exit_tables: &TableSet,
    progress: &ProgressBar,
    comm: &mut dyn Exchange,
    limits: SliceLimits,
    frontier: &mut Vec<u64>,
    later: &mut BTreeMap<u16, Vec<u64>>,
) -> Result<(), ExchangeError> {
    let ranks = comm.ranks();
    let (ix, metric, lo, bounds) = (g.ix, g.metric, g.lo, g.bounds);
    let n = (g.hi - g.lo) as usize;
    let mut ep_inits: Vec<(Color, u64, Position)> = Vec::new();
    const CHUNK: usize = 1 << 14;
    // Several slices meet between parts of the initialisation, so that a slice that has died
    // or hangs is noticed within a part's time (all slices run the same number of parts).
    let part_len = if ranks == 1 { n.max(1) } else { limits.init_part.max(1) };
    let longest = (0..ranks).map(|r| (bounds[r + 1] - bounds[r]) as usize).max().unwrap_or(0);
    for side in Color::ALL {
        for part in 0..longest.div_ceil(part_len).max(1) {
            let (first, last) = ((part * part_len).min(n), ((part + 1) * part_len).min(n));
            let parts: Vec<InitPart> = (first..last)
                .step_by(CHUNK)
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(|c| {
                    let mut mates = Vec::new();
                    let mut sched = Vec::new();
                    let mut eps = Vec::new();
                    let end = (c + CHUNK).min(last);
                    for i in c..end {
                        g.init_one(side, lo + i as u64, exit_tables, &mut mates, &mut sched, &mut eps);
                    }
                    progress.inc((end - c) as u64);
                    (mates, sched, eps)
                })
                .collect();
            for (m, s, e) in parts {
                frontier.extend(m);
                for (lvl, nd) in s {
                    later.entry(lvl).or_default().push(nd);
                }
                ep_inits.extend(e);
            }
            if ranks > 1 {
                comm.all_to_all(vec![Vec::new(); ranks])?;
            }
        }
    }
    // En-passant nodes: value their captures. A node belongs to the slice of its stored
    // position, whose taking back decides it: (double-stepping position, exit code, stored
    // position) go there.
    let mut ep_records = vec![Vec::new(); ranks];
    for (q_side, q_idx, qep) in ep_inits {
        let mut best: Option<Dtm> = None;
        for &m in qep.legal_moves().iter().filter(|m| m.is_en_passant()) {
            let v = metric
                .exit_value(exit_tables.probe(&qep.play(m)).ok().flatten().expect("sub-table for en-passant capture"));
            if best.is_none_or(|b| v.better(b).is_gt()) {
                best = Some(v);
            }
        }
        let best = best.expect("an en-passant node has an en-passant capture");
        let stored = ix.index_of(&qep).expect("position after a double step is indexable");
        ep_records[owner(bounds, stored)].extend([
            node(q_side, q_idx),
            u64::from(best.code() + 1),
            node(qep.side_to_move(), stored),
        ]);
    }
    let ep_records = if ranks == 1 { ep_records } else { comm.all_to_all(ep_records)? };
    for rec in ep_records.iter().flat_map(|words| words.chunks_exact(3)) {
        let (q, exit, stored) = (rec[0], rec[1] as u16, rec[2]);
        let id = g.ep_nodes.len() as u32;
        if let Some(Dtm::Win(d)) = exit_dtm(exit) {
            later.entry(d).or_default().push(EP_FLAG | id as u64);
        }
        g.ep_nodes.push(EpNode { q_side: side_of(q), q_idx: q & IDX_MASK, exit, value: AtomicU16::new(DRAW) });
        g.ep_by_pos.entry(stored).or_default().push(id);
    }

    Ok(())
}

/// The checkpoint to resume from: the latest level every slice has a file of, read back by
/// every slice; `None` (start from the beginning) when there is none or one slice cannot
/// read its file.
fn resume(
    plan: &CheckpointPlan,
    id: SliceId,
    comm: &mut dyn Exchange,
    progress: &ProgressBar,
) -> Result<Option<Restored>, ExchangeError> {
    let mine: Vec<u64> = plan.levels_on_disk(id.rank, id.ranks).into_iter().map(u64::from).collect();
    let all = comm.all_to_all(vec![mine.clone(); id.ranks])?;
    let Some(level) = mine.iter().copied().filter(|l| all.iter().all(|o| o.contains(l))).max() else {
        return Ok(None);
    };
    let loaded = checkpoint::load(plan, id, level as u16);
    if let Err(e) = &loaded {
        progress.println(format!("warning: checkpoint not read, starting from the beginning: {e}"));
    }
    if comm.sum(u64::from(loaded.is_err()))? > 0 {
        return Ok(None);
    }
    Ok(loaded.ok())
}

/// The slice that holds index `idx` (`bounds`: every slice's first index, then the size).
#[inline]
fn owner(bounds: &[u64], idx: u64) -> usize {
    bounds.partition_point(|&start| start <= idx) - 1
}

/// Each level's traffic summed over the slices, on slice 0 (every slice ran the same levels).
fn sum_traffic(comm: &mut dyn Exchange, mine: Vec<LevelTraffic>) -> Result<Vec<LevelTraffic>, ExchangeError> {
    let words = mine.iter().flat_map(|t| [u64::from(t.level), t.updates, t.messages]).collect();
    let all = comm.gather(words)?;
    if comm.rank() != 0 {
        return Ok(mine);
    }
    let mut total: Vec<LevelTraffic> =
        mine.iter().map(|t| LevelTraffic { level: t.level, updates: 0, messages: 0 }).collect();
    for words in &all {
        for (t, w) in total.iter_mut().zip(words.chunks_exact(3)) {
            t.updates += w[1];
            t.messages += w[2];
        }
    }
    Ok(total)
}

impl Gen<'_> {
    #[inline]
    fn cell(&self, nd: u64) -> &AtomicU16 {
        if nd & EP_FLAG != 0 {
            &self.ep_nodes[(nd & IDX_MASK) as usize].value
        } else {
            &self.values[side_of(nd).index()][((nd & IDX_MASK) - self.lo) as usize]
        }
    }

    /// Adds a chunk's output to the level's lists.
    fn merge(
        &self,
        o: Out,
        level: u16,
        frontier: &mut Vec<u64>,
        later: &mut BTreeMap<u16, Vec<u64>>,
        remote: &mut [Vec<u64>],
    ) {
        frontier.extend(o.next);
        for (lvl, nd) in o.later {
            debug_assert!(lvl > level + 1, "scheduled for a level already reached");
            later.entry(lvl).or_default().push(nd);
        }
        for (to, batch) in o.remote.into_iter().enumerate() {
            remote[to].extend(batch);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn init_one(
        &self,
        side: Color,
        idx: u64,
        subs: &TableSet,
        mates: &mut Vec<u64>,
        sched: &mut Vec<(u16, u64)>,
        eps: &mut Vec<(Color, u64, Position)>,
    ) {
        let ix = self.ix;
        let np = ix.pieces().len();
        let s = side.index();
        let i = (idx - self.lo) as usize;
        let mut sq = [0u8; 8];
        ix.decode(idx, &mut sq);
        if ix.encode(&sq[..np]) != Some(idx) {
            self.values[s][i].store(ILLEGAL, Relaxed);
            return;
        }
        let Some(pos) = ix.position_from_squares(&sq[..np], side) else {
            self.values[s][i].store(ILLEGAL, Relaxed);
            return;
        };
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.in_check() {
                self.values[s][i].store(level_code(0), Relaxed);
                mates.push(node(side, idx));
            }
            return;
        }
        let mut best_exit: Option<Dtm> = None;
        let mut succ = [0u64; MAX_EDGES];
        let mut ns = 0;
        let mut ep_count = 0;
        for &m in moves.iter() {
            if self.metric.is_exit(&pos, m) {
                let after = pos.play(m);
                let v = match subs.probe(&after) {
                    Ok(Some(v)) => self.metric.exit_value(v),
                    other => panic!("sub-table value missing for {} ({other:?})", after.fen()),
                };
                if best_exit.is_none_or(|b| v.better(b).is_gt()) {
                    best_exit = Some(v);
                }
                continue;
            }
            let from = m.from().index() as u8;
            let to = m.to().index() as u8;
            if pos.role_at(m.from()) == Some(Role::Pawn) && from.abs_diff(to) == 16 {
                let after = pos.play(m);
                if after.ep_square().is_some() {
                    eps.push((side, idx, after));
                    ep_count += 1;
                    continue;
                }
            }
            let mut nsq = sq;
            let k = (0..np).find(|&k| nsq[k] == from).expect("moving man is indexed");
            nsq[k] = to;
            succ[ns] = ix.encode(&nsq[..np]).expect("successor of a legal position is indexable");
            ns += 1;
        }
        let list = &mut succ[..ns];
        let distinct = if may_collide(ix, &sq) {
            list.sort_unstable();
            list.iter().enumerate().filter(|&(j, v)| j == 0 || list[j - 1] != *v).count()
        } else {
            ns
        };
        let count = distinct + ep_count;
        self.counters[s][i].store(count as u8, Relaxed);
        if let Some(e) = best_exit {
            self.values[s][i].store(PENDING | e.code(), Relaxed);
            match e {
                Dtm::Win(d) => sched.push((d, node(side, idx))),
                Dtm::Loss(d) if count == 0 => sched.push((d, node(side, idx))),
                _ => {}
            }
        }
    }

    /// Takes back the last move into a node decided at `level`.
    fn process(&self, nd: u64, level: u16, out: &mut Out) {
        if nd & EP_FLAG != 0 {
            let e = &self.ep_nodes[(nd & IDX_MASK) as usize];
            self.apply(e.q_side, e.q_idx, level, out);
            return;
        }
        let side = side_of(nd);
        let idx = nd & IDX_MASK;
        let ix = self.ix;
        let np = ix.pieces().len();
        let mut sq = [0u8; 8];
        ix.decode(idx, &mut sq);
        let mover = !side;
        let mut occ = Bitboard::EMPTY;
        for &s in &sq[..np] {
            occ = occ.with(Square::from_index(s as usize));
        }
        let mut preds = [0u64; MAX_EDGES];
        let mut np_ = 0;
        for k in 0..np {
            let pc = ix.pieces()[k];
            if pc.color != mover {
                continue;
            }
            let from = Square::from_index(sq[k] as usize);
            let push = |to: Square, preds: &mut [u64; MAX_EDGES], np_: &mut usize| {
                let mut nsq = sq;
                nsq[k] = to.index() as u8;
                if let Some(q) = ix.encode(&nsq[..np]) {
                    preds[*np_] = q;
                    *np_ += 1;
                }
            };
            if pc.role == Role::Pawn {
                if self.metric == Metric::Dtz {
                    // A pawn move is an exit in DTZ, valued at initialisation.
                    continue;
                }
                let fwd: i8 = if mover == Color::White { 8 } else { -8 };
                let rel_rank = from.rank().relative(mover).index();
                if rel_rank < 2 {
                    continue;
                }
                let back1 = from.offset(-fwd).expect("pawn has a square behind");
                if occ.contains(back1) {
                    continue;
                }
                push(back1, &mut preds, &mut np_);
                if rel_rank == 3 {
                    let back2 = back1.offset(-fwd).expect("fourth rank has a second");
                    if !occ.contains(back2) && !self.double_step_gives_ep(&sq[..np], k, back2, mover) {
                        push(back2, &mut preds, &mut np_);
                    }
                }
            } else {
                for to in attacks::attacks(pc.role, mover, from, occ) & !occ {
                    push(to, &mut preds, &mut np_);
                }
            }
        }
        let list = &mut preds[..np_];
        if may_collide(ix, &sq) {
            list.sort_unstable();
        }
        for j in 0..list.len() {
            if j == 0 || list[j - 1] != list[j] {
                self.apply(mover, list[j], level, out);
            }
        }
        // En-passant nodes whose stored position this is.
        if let Some(ids) = self.ep_by_pos.get(&nd) {
            for &id in ids {
                let e = &self.ep_nodes[id as usize];
                let target = if level % 2 == 1 {
                    Some(level)
                } else {
                    match exit_dtm(e.exit) {
                        Some(Dtm::Loss(d)) => Some(d.max(level)),
                        _ => None,
                    }
                };
                // Decided now (and taken back at once, same level) or scheduled;
                // a node someone else decided first is left alone.
                if let Some(t) = target {
                    if t > level {
                        out.later.push((t, EP_FLAG | id as u64));
                    } else if decide(&e.value, level_code(level)) {
                        self.process(EP_FLAG | id as u64, level, out);
                    }
                }
            }
        }
    }

    /// True if a double step of man `k` from `from2` to its square would give
    /// the opponent a legal en-passant capture (then it leads to an en-passant node).
    fn double_step_gives_ep(&self, sq: &[u8], k: usize, from2: Square, mover: Color) -> bool {
        let mut before = [0u8; 8];
        before[..sq.len()].copy_from_slice(sq);
        let to = Square::from_index(sq[k] as usize);
        before[k] = from2.index() as u8;
        match self.ix.position_from_squares(&before[..sq.len()], mover) {
            Some(p) => {
                let m = Move::normal(from2, to);
                p.is_legal(m) && p.play(m).ep_square().is_some()
            }
            None => false,
        }
    }

    /// A successor of (q_side, q) was decided at `level`.
    #[inline]
    fn apply(&self, q_side: Color, q: u64, level: u16, out: &mut Out) {
        if q < self.lo || q >= self.hi {
            // Another slice's position: it applies the update at this level.
            if out.remote.is_empty() {
                out.remote = vec![Vec::new(); self.bounds.len() - 1];
            }
            out.remote[owner(self.bounds, q)].push(node(q_side, q));
            return;
        }
        let s = q_side.index();
        let qi = (q - self.lo) as usize;
        let cell = &self.values[s][qi];
        if level.is_multiple_of(2) {
            // The successor is lost for its side to move: q wins.
            if decide(cell, level_code(level + 1)) {
                out.next.push(node(q_side, q));
            }
        } else if undecided(cell.load(Relaxed)) {
            let before = self.counters[s][qi].fetch_sub(1, Relaxed);
            debug_assert!(before > 0, "counter underflow");
            if before == 1 {
                // Only this update brings the counter to zero, and at an odd level nothing
                // else decides a stored position: the cell still holds its exit.
                let target = match pending_exit(cell.load(Relaxed)) {
                    None => Some(level + 1),
                    Some(Dtm::Loss(d)) => Some(d.max(level + 1)),
                    _ => None,
                };
                if let Some(t) = target {
                    if t > level + 1 {
                        out.later.push((t, node(q_side, q)));
                    } else if decide(cell, level_code(t)) {
                        out.next.push(node(q_side, q));
                    }
                }
            }
        }
    }
}

/// Generates `targets` and everything they need into `set`, in memory and in the
/// set's metric (tables already in `set` are kept). Returns the names generated.
/// A DTZ set is built from DTM tables generated first (and dropped after).
pub fn generate_all_into(targets: &[Material], set: &mut TableSet) -> Vec<String> {
    let dtm = (set.metric() == Metric::Dtz).then(|| {
        let mut dtm = TableSet::new();
        generate_all_into(targets, &mut dtm);
        dtm
    });
    let mut done = Vec::new();
    for m in crate::material::dependency_order(targets) {
        if set.contains(&m) {
            continue;
        }
        let (t, _) = generate_in(&m, set.metric(), dtm.as_ref().unwrap_or(set), &ProgressBar::hidden());
        set.insert(std::sync::Arc::new(t));
        done.push(m.name());
    }
    done
}
