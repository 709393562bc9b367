//! A* (and best-first) search over the moves of one series for a mate, and an
//! exhaustive depth-first search that can prove there is none.
//!
//! All mates lie at the same depth (check only with the last move), so goal
//! tests are made when a node with one move left is expanded: only its
//! checking moves can mate. Nodes keep only their parent and move (8 bytes);
//! a node's position is rebuilt by replaying its path from the root when it
//! is expanded, which costs a few copies and keeps memory small enough for
//! millions of nodes.

use super::heuristic::{Heuristic, MateContext};
use crate::error::ProgressiveError;
use crate::rules::Rules;
use crate::series::{SeriesPosition, Status};
use bastion_core::Move;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Hasher for keys that are already random (Zobrist keys).
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// A set of Zobrist keys hashed by [`KeyHasher`].
pub type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// Which A* form to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Variant {
    /// f(n) = g(n) + h(n) with g(n) = moves used × x / y (the best form in Janko 2015, §4.2).
    AStar,
    /// f(n) = h(n): best-first search, path cost ignored.
    BestFirst,
}

impl std::str::FromStr for Variant {
    type Err = ProgressiveError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace(['-', '_', '*'], "").as_str() {
            "astar" | "a" => Ok(Variant::AStar),
            "bestfirst" | "best" | "greedy" => Ok(Variant::BestFirst),
            _ => Err(ProgressiveError::BadOption(format!("unknown variant {s:?} (astar, best-first)"))),
        }
    }
}

/// Settings of a mate search.
#[derive(Clone, Debug)]
pub struct MateOptions {
    /// The guiding heuristic.
    pub heuristic: Heuristic,
    /// A* or best-first.
    pub variant: Variant,
    /// Add the promotion term.
    pub promotion: bool,
    /// Add the king-pin term.
    pub pin: bool,
    /// Stop after this long.
    pub time_limit: Duration,
    /// Stop after generating this many nodes (for reproducible runs).
    pub node_limit: Option<u64>,
    /// Override of x/y per move for the A* path cost.
    pub g_per_move: Option<f32>,
    /// Set by another thread to end the search at once (outcome unknown), as a
    /// client that goes away ends its job.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for MateOptions {
    fn default() -> Self {
        MateOptions {
            heuristic: Heuristic::Coverage,
            variant: Variant::AStar,
            promotion: true,
            pin: true,
            time_limit: Duration::from_secs(10),
            node_limit: None,
            g_per_move: None,
            stop: None,
        }
    }
}

impl MateOptions {
    /// The default search with another time limit.
    pub fn with_time(t: Duration) -> MateOptions {
        MateOptions { time_limit: t, ..MateOptions::default() }
    }

    /// True once [`MateOptions::stop`] is set.
    pub fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// What a mate search concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum MateOutcome {
    /// A mate was found (and it is checked by replaying it).
    Found,
    /// Every series was searched: there is no mate.
    NoMate,
    /// The limit was reached first: unknown.
    Unknown,
}

/// The answer of a mate search.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MateResult {
    /// Found, proved absent, or unknown.
    pub outcome: MateOutcome,
    /// The mating moves (the rest of the series), when found.
    #[serde(skip)]
    pub moves: Option<Vec<Move>>,
    /// Nodes generated.
    pub nodes: u64,
    /// Wall time used.
    pub elapsed: Duration,
}

impl MateResult {
    /// True when a mate was found.
    pub fn found(&self) -> bool {
        self.outcome == MateOutcome::Found
    }
}

#[derive(Clone, Copy)]
struct Node {
    parent: u32,
    mv: Move,
}

#[derive(PartialEq, Eq)]
struct Entry {
    f: i32,
    depth: u8,
    seq: u32,
    node: u32,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // Max-heap: smaller f first, then deeper, then newer (LIFO among equals).
        other.f.cmp(&self.f).then(self.depth.cmp(&other.depth)).then(self.seq.cmp(&other.seq))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// True if `child` (the opponent's series start after our move) is mate, or,
/// for a Scottish early check, the same test.
#[inline]
fn is_mate_end(child: &SeriesPosition) -> bool {
    child.played() == 0 && child.in_check() && !child.has_legal_moves()
}

/// Searches for a mate in the remaining moves of the current series with the
/// chosen heuristic and A* variant.
pub fn find_mate(root: &SeriesPosition, opts: &MateOptions) -> MateResult {
    let start = Instant::now();
    let mut nodes = 0u64;
    let done = |outcome, moves, nodes| MateResult { outcome, moves, nodes, elapsed: start.elapsed() };
    if root.status() != Status::Ongoing {
        return done(MateOutcome::NoMate, None, 0);
    }
    let ctx = MateContext::new(root.board(), opts.heuristic, opts.promotion, opts.pin);
    let total = root.moves_left();
    let g_step = match opts.variant {
        Variant::BestFirst => 0.0,
        Variant::AStar => opts.g_per_move.unwrap_or_else(|| opts.heuristic.improvement_per_move()),
    };
    let scottish = root.rules() == Rules::Scottish;
    let mut arena: Vec<Node> = vec![Node { parent: u32::MAX, mv: Move::NULL }];
    let mut open = BinaryHeap::new();
    let mut seen = KeySet::default();
    seen.insert(root.key());
    open.push(Entry { f: 0, depth: 0, seq: 0, node: 0 });
    let mut seq = 0u32;
    let mut path: Vec<Move> = Vec::with_capacity(total as usize);
    let mut expansions = 0u64;
    while let Some(Entry { node, .. }) = open.pop() {
        expansions += 1;
        if expansions.is_multiple_of(256) && (start.elapsed() >= opts.time_limit || opts.stopped()) {
            return done(MateOutcome::Unknown, None, nodes);
        }
        if opts.node_limit.is_some_and(|l| nodes >= l) {
            return done(MateOutcome::Unknown, None, nodes);
        }
        // Rebuild the node's position.
        path.clear();
        let mut n = node;
        while n != 0 {
            path.push(arena[n as usize].mv);
            n = arena[n as usize].parent;
        }
        path.reverse();
        let mut pos = root.clone();
        for &m in &path {
            pos = pos.play_unchecked(m);
        }
        let depth = path.len() as u32;
        let left = total - depth;
        if left == 1 || scottish {
            // Goal test: the checking moves that end the series.
            let mut mate = None;
            for &m in pos.pseudo_series_moves().iter() {
                let after = pos.board().play(m);
                if !after.in_check() {
                    continue;
                }
                nodes += 1;
                let child = pos.play_unchecked(m);
                if is_mate_end(&child) {
                    mate = Some(m);
                    break;
                }
            }
            if let Some(m) = mate {
                path.push(m);
                debug_assert!(root.play_series(&path).is_ok());
                return done(MateOutcome::Found, Some(path), nodes);
            }
            if left == 1 {
                continue;
            }
        }
        pos.for_each_child(|m, child| {
            if child.played() == 0 {
                return; // Scottish early check, already tested above.
            }
            nodes += 1;
            if !seen.insert(child.key()) {
                return;
            }
            let d = depth + 1;
            let h = ctx.cost(child.board(), d, left - 1);
            let f = g_step * d as f32 + h;
            arena.push(Node { parent: node, mv: m });
            seq = seq.wrapping_add(1);
            open.push(Entry { f: (f * 64.0) as i32, depth: d as u8, seq, node: arena.len() as u32 - 1 });
        });
    }
    done(MateOutcome::NoMate, None, nodes)
}

/// Depth-first search of every series with a transposition set: finds a mate
/// or proves that none exists, unless the limits are reached first.
pub fn exhaustive_mate(root: &SeriesPosition, time_limit: Duration, node_limit: Option<u64>) -> MateResult {
    let start = Instant::now();
    if root.status() != Status::Ongoing {
        return MateResult { outcome: MateOutcome::NoMate, moves: None, nodes: 0, elapsed: start.elapsed() };
    }
    let mut s = Exhaustive {
        start,
        time_limit,
        node_limit: node_limit.unwrap_or(u64::MAX),
        nodes: 0,
        seen: KeySet::default(),
        path: Vec::new(),
        aborted: false,
    };
    let found = s.dfs(root);
    let outcome = if found {
        MateOutcome::Found
    } else if s.aborted {
        MateOutcome::Unknown
    } else {
        MateOutcome::NoMate
    };
    MateResult { outcome, moves: found.then(|| s.path.clone()), nodes: s.nodes, elapsed: start.elapsed() }
}

struct Exhaustive {
    start: Instant,
    time_limit: Duration,
    node_limit: u64,
    nodes: u64,
    seen: KeySet,
    path: Vec<Move>,
    aborted: bool,
}

impl Exhaustive {
    fn dfs(&mut self, pos: &SeriesPosition) -> bool {
        if self.aborted {
            return false;
        }
        if self.nodes.is_multiple_of(1024) && (self.start.elapsed() >= self.time_limit || self.nodes >= self.node_limit)
        {
            self.aborted = true;
            return false;
        }
        let last = pos.is_last_move();
        let scottish = pos.rules() == Rules::Scottish;
        let moves = pos.pseudo_series_moves();
        // Mates first: checking moves that end the series.
        if last || scottish {
            for &m in moves.iter() {
                if pos.board().play(m).in_check() {
                    self.nodes += 1;
                    if is_mate_end(&pos.play_unchecked(m)) {
                        self.path.push(m);
                        return true;
                    }
                }
            }
        }
        if last {
            return false;
        }
        for &m in moves.iter() {
            let after = pos.board().play(m);
            if after.in_check() {
                continue;
            }
            let child = pos.advance(m, after);
            self.nodes += 1;
            if !self.seen.insert(child.key()) {
                continue;
            }
            self.path.push(m);
            if self.dfs(&child) {
                return true;
            }
            self.path.pop();
            if self.aborted {
                return false;
            }
        }
        false
    }
}
