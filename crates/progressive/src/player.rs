//! The computer player: each turn in three phases (Janko 2015, §3.2).
//!
//! 1. Mate search in this series (A*, coverage heuristic).
//! 2. Good series by A* over the series with the evaluation of Janko 2015,
//!    §5.1 (Table 5.1), combined with minimax one turn deep (§5.2.3): the
//!    best own series are answered by the opponent's best reply found the
//!    same way (depth 0, 1 or 2).
//! 3. Mate prevention: the chosen series is played only if the opponent has
//!    no mate in reply (checked with the mate finder); else the next one.
//!
//! Opening book for the first two turns; time control per turn.

mod options;

pub use options::{PlayerOptions, VARIED_NOISE};

use crate::book;
use crate::endgame;
use crate::eval::{evaluate, EvalOptions, MATE_SCORE};
use crate::mate::{find_mate, KeySet};
use crate::series::{SeriesPosition, Status};
use bastion_core::rng::Rng;
use bastion_core::{Color, Move};
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Where the chosen series came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Phase {
    /// The opening book.
    Book,
    /// A mate found in phase 1.
    Mate,
    /// The series search, checked against mate in reply.
    Search,
    /// The placement planner against a lone king ([`crate::endgame`]).
    Endgame,
    /// The series search, but every candidate checked allowed a mate.
    Desperate,
}

/// The player's decision for one turn.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The moves to play (the rest of the current series).
    pub moves: Vec<Move>,
    /// How it was found.
    pub phase: Phase,
    /// Score in pawns for the mover (after the opponent's best reply at depth ≥ 1).
    pub score: f32,
    /// Series-search nodes generated.
    pub nodes: u64,
    /// Candidates rejected because they allowed a mate.
    pub refuted: u32,
}

/// One complete series found by the series search.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The moves.
    pub moves: Vec<Move>,
    /// The position after them.
    pub end: SeriesPosition,
    /// Evaluation for the mover.
    pub score: f32,
}

/// Scores a series end for `pov` (the side that just played): mate, draw or evaluation.
fn score_end(end: &SeriesPosition, pov: Color, opts: &EvalOptions) -> f32 {
    match end.status() {
        Status::Checkmate => {
            if end.side_to_move() == pov {
                -MATE_SCORE
            } else {
                MATE_SCORE
            }
        }
        Status::Stalemate | Status::TenTurnRule => 0.0,
        Status::Ongoing => {
            let len = end.series_len();
            let side = end.side_to_move();
            evaluate(end.board(), pov, opts, |c| if c == side { len } else { len + 1 })
        }
    }
}

#[derive(PartialEq)]
struct Open {
    f: f32,
    node: u32,
}
impl Eq for Open {}
impl Ord for Open {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.f.total_cmp(&self.f).then(self.node.cmp(&o.node))
    }
}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

/// Best-first (A*-style) search over the moves of the current series with
/// the evaluation; returns up to `keep` complete series, best first.
/// Stops at `deadline` or after `max_nodes` nodes; always returns at least one
/// series if any exists (it completes one greedily first).
pub fn series_search(
    root: &SeriesPosition,
    opts: &EvalOptions,
    deadline: Instant,
    max_nodes: u64,
    keep: usize,
) -> (Vec<Candidate>, u64) {
    search_until(root, opts, deadline, max_nodes, keep, None)
}

/// [`series_search`] that also ends, as at its deadline, once `stop` is set.
fn search_until(
    root: &SeriesPosition,
    opts: &EvalOptions,
    deadline: Instant,
    max_nodes: u64,
    keep: usize,
    stop: Option<&AtomicBool>,
) -> (Vec<Candidate>, u64) {
    let pov = root.side_to_move();
    let total = root.moves_left();
    let mut nodes: Vec<(SeriesPosition, u32, Move)> = vec![(root.clone(), u32::MAX, Move::NULL)];
    let mut open = BinaryHeap::new();
    open.push(Open { f: 0.0, node: 0 });
    let mut seen = KeySet::default();
    let mut leaves: HashMap<u64, Candidate> = HashMap::new();
    let mut generated = 0u64;
    let eval_partial = |p: &SeriesPosition| {
        let len = p.series_len();
        evaluate(p.board(), pov, opts, |c| if c == pov { len + 2 } else { len + 1 })
    };
    let path_of = |nodes: &Vec<(SeriesPosition, u32, Move)>, mut i: u32| {
        let mut v = Vec::new();
        while nodes[i as usize].1 != u32::MAX {
            v.push(nodes[i as usize].2);
            i = nodes[i as usize].1;
        }
        v.reverse();
        v
    };
    let mut expansions = 0u64;
    while let Some(Open { node, .. }) = open.pop() {
        expansions += 1;
        let out_of_time = expansions.is_multiple_of(32)
            && (Instant::now() >= deadline || stop.is_some_and(|s| s.load(Ordering::Relaxed)));
        if (out_of_time || generated >= max_nodes) && !leaves.is_empty() {
            break;
        }
        let pos = nodes[node as usize].0.clone();
        let depth = total - pos.moves_left();
        let mut children = Vec::new();
        pos.for_each_child(|m, child| children.push((m, child)));
        if children.is_empty() && depth > 0 {
            // Stuck inside the series: a drawn game.
            let moves = path_of(&nodes, node);
            leaves.entry(pos.key()).or_insert(Candidate { moves, end: pos.clone(), score: 0.0 });
            continue;
        }
        for (m, child) in children {
            generated += 1;
            if child.played() == 0 {
                let score = score_end(&child, pov, opts);
                let key = child.key();
                if let std::collections::hash_map::Entry::Vacant(e) = leaves.entry(key) {
                    let mut moves = path_of(&nodes, node);
                    moves.push(m);
                    e.insert(Candidate { moves, end: child, score });
                }
                continue;
            }
            if !seen.insert(child.key()) {
                continue;
            }
            let e = eval_partial(&child);
            // Deeper nodes get a small bonus so complete series appear early.
            let f = -e - 0.15 * (depth + 1) as f32;
            nodes.push((child, node, m));
            let id = nodes.len() as u32 - 1;
            open.push(Open { f, node: id });
        }
    }
    let mut out: Vec<Candidate> = leaves.into_values().collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out.truncate(keep.max(1));
    (out, generated)
}

/// Minimax over A* candidates: the value of `pos` for its mover, `depth` turns deep.
fn negamax(pos: &SeriesPosition, depth: u32, opts: &PlayerOptions, deadline: Instant, width: usize) -> (f32, u64) {
    let now = Instant::now();
    let budget = deadline.saturating_duration_since(now);
    let own_deadline = if depth == 0 { deadline } else { now + budget / 2 };
    let keep = if depth == 0 { 1 } else { width };
    let (cands, mut nodes) = search_until(pos, &opts.eval, own_deadline, u64::MAX, keep, opts.stop.as_deref());
    if cands.is_empty() {
        return (0.0, nodes);
    }
    if depth == 0 {
        return (cands[0].score, nodes);
    }
    let mut best = f32::NEG_INFINITY;
    let n = cands.len();
    for (i, c) in cands.iter().enumerate() {
        if c.score.abs() >= MATE_SCORE || c.end.status() != Status::Ongoing {
            best = best.max(c.score);
            continue;
        }
        if opts.stopped() {
            // Stopped: the rest are valued by their own series score.
            best = best.max(c.score);
            continue;
        }
        let now = Instant::now();
        let slice = deadline.saturating_duration_since(now) / (n - i) as u32;
        let (v, k) = negamax(&c.end, depth - 1, opts, now + slice, (width / 6).max(4));
        nodes += k;
        best = best.max(-v);
    }
    (best, nodes)
}

/// Chooses the series to play in `pos` (the rest of the current series).
/// Returns `None` only when the game is already over.
pub fn choose_series(pos: &SeriesPosition, opts: &PlayerOptions) -> Option<Choice> {
    if pos.status() != Status::Ongoing {
        return None;
    }
    let start = Instant::now();
    let deadline = start + opts.time;
    let mut rng = Rng::new(opts.seed ^ pos.key());
    if opts.book {
        if let Some(moves) = book::book_series(pos, opts.wide_book, &mut rng) {
            return Some(Choice { moves, phase: Phase::Book, score: 0.0, nodes: 0, refuted: 0 });
        }
    }
    // Phase 1: mate.
    if !opts.skip_mate_search {
        let r = find_mate(pos, &opts.mate_for(opts.time.mul_f32(0.2)));
        if let Some(moves) = r.moves {
            return Some(Choice { moves, phase: Phase::Mate, score: MATE_SCORE, nodes: r.nodes, refuted: 0 });
        }
    }
    // Against a bare king the placement planner replaces phase 2 (a bare king
    // cannot mate, so phase 3 has nothing to prevent).
    if opts.planner && opts.eval.endgame && !opts.stopped() && endgame::applies(pos.board()) {
        let plan_end = Instant::now() + deadline.saturating_duration_since(Instant::now()).mul_f32(0.8);
        if let Some(moves) = endgame::plan_series(pos, plan_end) {
            return Some(Choice { moves, phase: Phase::Endgame, score: 0.0, nodes: 0, refuted: 0 });
        }
    }
    if opts.planner && opts.eval.endgame && !opts.stopped() && endgame::defends(pos.board()) {
        let plan_end = Instant::now() + deadline.saturating_duration_since(Instant::now()).mul_f32(0.8);
        if let Some(moves) = endgame::defend_series(pos, plan_end) {
            return Some(Choice { moves, phase: Phase::Endgame, score: 0.0, nodes: 0, refuted: 0 });
        }
    }
    // Phase 2: candidate series, each valued by minimax over the opponent's replies.
    let phase2_end = Instant::now() + deadline.saturating_duration_since(Instant::now()).mul_f32(0.5);
    let root_search_end = if opts.depth == 0 {
        phase2_end
    } else {
        Instant::now() + phase2_end.saturating_duration_since(Instant::now()) / 2
    };
    let (mut cands, mut nodes) =
        search_until(pos, &opts.eval, root_search_end, u64::MAX, opts.width.max(8), opts.stop.as_deref());
    if cands.is_empty() {
        return None;
    }
    let mut scored: Vec<(f32, usize)> = Vec::new();
    if opts.depth == 0 {
        for (i, c) in cands.iter().enumerate() {
            scored.push((c.score + opts.noise * (rng.unit() - 0.5), i));
        }
    } else {
        let n = cands.len().min(opts.width);
        for (i, c) in cands.iter().enumerate().take(n) {
            let value = if c.score.abs() >= MATE_SCORE || c.end.status() != Status::Ongoing || opts.stopped() {
                c.score
            } else {
                let now = Instant::now();
                let slice = phase2_end.saturating_duration_since(now) / (n - i) as u32;
                let (v, k) = negamax(&c.end, opts.depth - 1, opts, now + slice, (opts.width / 6).max(4));
                nodes += k;
                -v
            };
            scored.push((value + opts.noise * (rng.unit() - 0.5), i));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    // Phase 3: reject series that allow a mate in reply.
    let mut refuted = 0;
    for &(score, i) in &scored {
        let end = &cands[i].end;
        if end.status() != Status::Ongoing || !opts.prevent_mates {
            return Some(Choice {
                moves: std::mem::take(&mut cands[i].moves),
                phase: Phase::Search,
                score,
                nodes,
                refuted,
            });
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || opts.stopped() {
            break;
        }
        let m = opts.mate_for(left.min(opts.time.mul_f32(0.15)).max(Duration::from_millis(5)));
        if !find_mate(end, &m).found() {
            return Some(Choice {
                moves: std::mem::take(&mut cands[i].moves),
                phase: Phase::Search,
                score,
                nodes,
                refuted,
            });
        }
        refuted += 1;
    }
    // Out of time or everything refuted: the best-scored series not known to lose.
    let (score, i) = scored.get(refuted as usize).copied().unwrap_or(scored[0]);
    let phase = if refuted as usize >= scored.len() { Phase::Desperate } else { Phase::Search };
    Some(Choice { moves: std::mem::take(&mut cands[i].moves), phase, score, nodes, refuted })
}
