//! Fortress-aware root decisions (UCI option `FortressAware`, off by default).
//!
//! An engine scores a fortress by its material: a rook up behind a locked pawn chain is
//! +8 at every depth, although the side ahead can never get in (Guid & Bratko 2012,
//! section 1). The fortress detector (`docs/fortress.md`) tells the two apart with a
//! *progress test*: the position is searched with the fifty-move counter advanced so that
//! only [`K`] moves remain before the draw. Unless the side ahead can force a capture, pawn
//! move or promotion that keeps its edge, every line then ends in the fifty-move draw and
//! the score collapses to 0.00. When the edge holds, the line is played up to its first
//! irreversible move and the test repeated from there, so that a capture which walks into
//! a fortress (1.Nxb6+ cxb6 in the Fig. 1 analog) collapses one stage later.
//!
//! This module runs that test at the root once the normal search has one side at least
//! [`TRIGGER`] ahead at depth [`MIN_DEPTH`] or more (positions with pawns only, one line,
//! a search limited by time, nodes or depth). The main search then gets `1 − SHARE` of the
//! time (or nodes), the phase the rest. A collapse at k = [`K`] is acted on only when the
//! test collapses again with [`K_CONFIRM`] moves left (the detector's two k): a slow win,
//! whose first capture or pawn move is more than three moves away, holds there. A test
//! position where the side ahead has a passed pawn is not searched: the pawn is progress
//! waiting to be made (KBPK with the defending king in front of the pawn collapses even at
//! k = 5), so it is no fortress. The rule:
//!
//! - *Side to move ahead.* Its best move is tested, after the captures that follow it at
//!   once in the normal line. On a confirmed collapse the move is scored by the test
//!   (pulled to about 0.00). If the move is a capture or pawn move, it built the fortress:
//!   the best other move by a normal search is examined. One that scores less than two
//!   pawns keeps its normal score; one above is tested in turn and keeps its score if its
//!   test holds, or is pulled like the first (then the next is examined, up to
//!   [`MAX_ALTERNATIVES`]). If the best move is a quiet one, the position itself is the
//!   suspected fortress: the side's captures and pawn moves are tested for a breakthrough
//!   that keeps two pawns under the test. Another move replaces the normal best only when
//!   it scores more than [`SWITCH_MARGIN`] above the best's pulled score.
//! - *Side to move behind.* Its best move, then its captures and pawn moves, are tested
//!   from the opponent's side. If the opponent's test collapses (confirmed) after the best
//!   move, its score is pulled; else the first other move after which it collapses builds a
//!   suspected fortress and is played, scored by the test.
//!
//! The test's searches use a table of their own: their scores depend on the advanced
//! clock, which the position key does not hold, so they must not reach the main table.

use super::thread::Worker;
use super::time::TimeManager;
use super::{Limits, SearchControl, SearchResult, Shared};
use crate::nnue::Network;
use crate::options::EngineOptions;
use crate::score::{is_decisive, INFINITE};
use crate::tb::{ProbeRule, TablebaseProbe};
use crate::tt::TranspositionTable;
use bastion_core::{Color, Move, Position, Role};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Moves left before the fifty-move draw in the progress test.
pub(crate) const K: u32 = 3;
/// Irreversible moves of the normal line played out after a root move before its test.
const MAX_EXCHANGE_PLIES: usize = 4;
/// Share of the move's time (or nodes) given to the test once it is armed.
pub(crate) const SHARE: f64 = 0.35;
/// Advantage in centipawns (from either side's view) from which the test runs.
pub(crate) const TRIGGER: i32 = 200;
/// Least depth of the normal search whose score arms the test.
const MIN_DEPTH: i32 = 8;
/// A test score at or below this (from the side ahead's view) is a collapse.
const COLLAPSE: i32 = 50;
/// Stages of the test of the side ahead's own move (a capture may walk into a fortress
/// only after the recapture).
const ATTACK_STAGES: usize = 3;
/// Stages of the test after a move of the side behind (a sacrifice is taken, then the
/// fortress stands).
const DEFENCE_STAGES: usize = 2;
/// Depth of a test's searches with k moves left: the fifty-move draw lies 2k plies ahead,
/// with room left for the lines that reach it through reductions, checks and captures.
const fn probe_depth(k: u32) -> i32 {
    2 * k as i32 + 10
}
/// Least depth of a test search with k moves left that gives a verdict: shallower, the
/// reductions keep lines short of the fifty-move draw and the evaluation's edge leaks in.
const fn verdict_depth(k: u32) -> i32 {
    2 * k as i32 + 6
}
/// Moves left in the test that confirms a collapse before the engine acts on it: a slow
/// win (a king or knight walk before the first capture or pawn move) holds there, a
/// fortress collapses at every k.
pub(crate) const K_CONFIRM: u32 = 5;
/// Another move replaces the normal best only when it scores this much more after the pull.
const SWITCH_MARGIN: i32 = 20;
/// Alternatives of the side ahead examined at most.
const MAX_ALTERNATIVES: usize = 3;
/// Moves of the side behind tested at most (its best move, then captures and pawn moves).
const MAX_DEFENCES: usize = 10;
/// Captures and pawn moves of the side ahead tested at most for a breakthrough.
const MAX_BREAKTHROUGHS: usize = 6;
/// Each search of the phase may take at most this share of what is left of the phase's
/// budget (so that the confirmation and an alternative still find time).
const PER_SEARCH: f64 = 0.5;
/// Nodes the phase may use at least when the search is limited by depth alone.
const MIN_PHASE_NODES: u64 = 1_500_000;
/// Hash of the test's own table in MiB.
const PROBE_HASH_MB: usize = 8;

/// Whether one search runs the fortress phase: created when the option is on and the
/// search qualifies, armed by the main thread while its score is decisive enough.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    armed: AtomicBool,
}

impl Plan {
    /// A plan for a search of `pos` under `limits`, or `None` when the phase cannot run:
    /// no pawns (the only irreversible changes left are captures and mate, beyond any
    /// affordable k), several lines or a restricted root, a search only `stop` ends, or
    /// tables that rank the root.
    pub fn for_search(opts: &EngineOptions, pos: &Position, limits: &Limits, tables_rank_root: bool) -> Option<Plan> {
        let qualifies = opts.fortress_aware
            && opts.multipv == 1
            && limits.searchmoves.is_empty()
            && !limits.is_unbounded()
            && !tables_rank_root
            && pos.role_bb(Role::Pawn).nonempty();
        qualifies.then(Plan::default)
    }

    /// Called by the main thread after each iteration: the phase is armed while the
    /// score of a deep enough iteration shows one side clearly ahead without a mate.
    pub fn observe(&self, depth: i32, score: i32) {
        let arm = depth >= MIN_DEPTH && score.abs() >= TRIGGER && !is_decisive(score);
        self.armed.store(arm, Ordering::Relaxed);
    }

    /// True when the phase will run after the main search.
    pub fn armed(&self) -> bool {
        self.armed.load(Ordering::Relaxed)
    }

    /// The factor on the main search's soft time limit.
    pub fn main_share(&self) -> f64 {
        if self.armed() {
            1.0 - SHARE
        } else {
            1.0
        }
    }

    /// True once an armed main search has used its share of the hard time limit or of
    /// the node limit.
    pub fn main_phase_over(&self, sh: &Shared) -> bool {
        if !self.armed() {
            return false;
        }
        let time_over = sh.time.hard.is_some_and(|h| sh.time.elapsed() >= h.mul_f64(1.0 - SHARE));
        let nodes_over = sh.limits.nodes.is_some_and(|n| sh.total_nodes() as f64 >= n as f64 * (1.0 - SHARE));
        time_over || nodes_over
    }
}

/// What the phase may spend.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    /// Wall-clock end.
    pub deadline: Option<Instant>,
    /// Nodes left.
    pub nodes: Option<u64>,
}

impl Budget {
    /// The phase's budget after a main search of `main_nodes` nodes that ended at
    /// `elapsed` into a search timed by `time` under `limits`.
    pub fn after_main(time: &TimeManager, limits: &Limits, main_nodes: u64) -> Budget {
        let elapsed = time.elapsed();
        let ratio = SHARE / (1.0 - SHARE);
        let deadline = time.hard.map(|hard| {
            let left = hard.saturating_sub(elapsed);
            let share = if time.fixed { left } else { left.min(elapsed.mul_f64(ratio)) };
            Instant::now() + share
        });
        let nodes = match limits.nodes {
            Some(n) => Some(n.saturating_sub(main_nodes)),
            None if deadline.is_none() => Some(((main_nodes as f64 * ratio) as u64).max(MIN_PHASE_NODES)),
            None => None,
        };
        Budget { deadline, nodes }
    }

    /// One search's part: [`PER_SEARCH`] of what is left after `used_nodes`.
    fn part(&self, used_nodes: u64) -> Budget {
        let now = Instant::now();
        let deadline = self.deadline.map(|end| now + end.saturating_duration_since(now).mul_f64(PER_SEARCH));
        let nodes = self.nodes.map(|n| (n.saturating_sub(used_nodes) as f64 * PER_SEARCH) as u64);
        Budget { deadline, nodes }
    }

    fn exhausted(&self, used_nodes: u64) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.nodes.is_some_and(|n| used_nodes >= n)
    }
}

/// What the engine shares with the phase's searches.
pub(crate) struct Env<'a> {
    /// Stop flag of the search.
    pub control: &'a SearchControl,
    /// Tables, if loaded.
    pub tb: Option<&'a dyn TablebaseProbe>,
    /// Which positions the search probes.
    pub tb_rule: ProbeRule,
    /// The options, with one line and no contempt (a draw must score 0.00 in the test).
    pub opts: EngineOptions,
    /// The network, if any.
    pub net: Option<&'a Network>,
    /// The main search's table, for the normal searches of alternatives.
    pub main_tt: &'a TranspositionTable,
}

/// The verdict of a progress test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// The side ahead's score fell to [`COLLAPSE`] or below.
    Collapses,
    /// The edge held through every stage (or a mate was found).
    Holds,
    /// Stopped, or too shallow for a verdict.
    Unknown,
}

/// A progress test's result.
#[derive(Clone, Debug)]
struct Test {
    outcome: Outcome,
    /// The last stage's score from the side ahead's view.
    score: i32,
    /// The stage that decided (1-based).
    stage: usize,
    /// The first stage's line.
    line: Vec<Move>,
}

/// The phase's decision, applied to the search result by the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decision {
    /// The move to play.
    pub best: Move,
    /// Its score (side to move's view) after the pull.
    pub value: i32,
    /// Its line.
    pub pv: Vec<Move>,
}

/// A root move's score after the phase.
#[derive(Clone, Debug)]
struct Candidate {
    mv: Move,
    value: i32,
    pv: Vec<Move>,
}

/// The phase's own searcher: one thread and a small table.
pub(crate) struct Prober {
    tt: TranspositionTable,
    worker: Box<Worker>,
    nodes: u64,
}

impl Prober {
    /// A searcher with its own table.
    pub fn new() -> Prober {
        Prober { tt: TranspositionTable::new(PROBE_HASH_MB), worker: Box::new(Worker::new(0)), nodes: 0 }
    }

    /// Forgets what earlier searches learned (new game, other network).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.worker.clear();
        self.worker.nnue.clear();
    }

    /// Runs the phase on the main search's `result` for `root` (played after the
    /// positions `history`). Returns the decision when it differs from the result (another
    /// move or a pulled score), the nodes searched, and the `info string` messages.
    pub fn refine(
        &mut self,
        env: &Env,
        root: &Position,
        history: &[u64],
        result: &SearchResult,
        budget: Budget,
        say: &mut dyn FnMut(&str),
    ) -> (Option<Decision>, u64) {
        self.nodes = 0;
        let Some(best) = result.best else { return (None, 0) };
        let mut keys = history.to_vec();
        keys.push(root.key());
        let decision = if result.value >= TRIGGER {
            self.attack(env, root, &keys, result, best, &budget, say)
        } else if result.value <= -TRIGGER {
            self.defend(env, root, &keys, result, best, &budget, say)
        } else {
            None
        };
        if env.control.stop.load(Ordering::Relaxed) {
            return (None, self.nodes);
        }
        (decision, self.nodes)
    }

    /// The side to move is ahead: does its best move keep real winning chances?
    #[allow(clippy::too_many_arguments)]
    fn attack(
        &mut self,
        env: &Env,
        root: &Position,
        keys: &[u64],
        result: &SearchResult,
        best: Move,
        budget: &Budget,
        say: &mut dyn FnMut(&str),
    ) -> Option<Decision> {
        let us = root.side_to_move();
        let test = self.progress_test(env, root, &result.pv, keys, us, ATTACK_STAGES, K, budget);
        if test.outcome != Outcome::Collapses
            || !self.confirmed(env, root, &result.pv, keys, us, ATTACK_STAGES, budget, say)
        {
            return None;
        }
        say(&collapse_message(root, best, result.value, &test, false, true));
        let mut chosen = Candidate { mv: best, value: test.score, pv: result.pv.clone() };
        let normal_best = chosen.clone();
        if is_irreversible(root, best) {
            // The move itself builds the fortress (a capture or pawn move): the best move
            // without it may keep winning chances.
            self.alternatives(env, root, keys, result, budget, &mut chosen, say);
        } else {
            // The position itself is the suspected fortress: only a capture or pawn move
            // that keeps the edge under the test can break it.
            self.breakthrough(env, root, keys, budget, &mut chosen, say);
        }
        if chosen.mv != normal_best.mv {
            say(&format!(
                "fortress: playing {} ({}) instead of {} ({}, pulled to {})",
                root.san(chosen.mv),
                pawns(chosen.value),
                root.san(best),
                pawns(result.value),
                pawns(normal_best.value)
            ));
        }
        Some(Decision { best: chosen.mv, value: chosen.value, pv: chosen.pv })
    }

    /// After the best move `chosen` collapsed: the best moves without it by a normal
    /// search, each tested in turn while it scores at least two pawns.
    #[allow(clippy::too_many_arguments)]
    fn alternatives(
        &mut self,
        env: &Env,
        root: &Position,
        keys: &[u64],
        result: &SearchResult,
        budget: &Budget,
        chosen: &mut Candidate,
        say: &mut dyn FnMut(&str),
    ) {
        let us = root.side_to_move();
        let mut excluded = vec![chosen.mv];
        for _ in 0..MAX_ALTERNATIVES {
            if budget.exhausted(self.nodes) || env.control.stop.load(Ordering::Relaxed) {
                break;
            }
            let moves: Vec<Move> = root.legal_moves().iter().copied().filter(|m| !excluded.contains(m)).collect();
            if moves.is_empty() {
                break;
            }
            let part = budget.part(self.nodes);
            let depth = result.depth.max(1);
            let Some(r) = self.search(env, false, root, &keys[..keys.len() - 1], moves, depth, part) else { break };
            let Some(alt) = r.best else { break };
            if r.depth < depth.min(MIN_DEPTH) || r.value <= chosen.value + SWITCH_MARGIN {
                break;
            }
            if r.value < TRIGGER {
                say(&format!(
                    "fortress: {} scores {} by the normal search (below the test's {} threshold)",
                    root.san(alt),
                    pawns(r.value),
                    pawns(TRIGGER)
                ));
                *chosen = Candidate { mv: alt, value: r.value, pv: r.pv };
                break;
            }
            let t = self.progress_test(env, root, &r.pv, keys, us, ATTACK_STAGES, K, budget);
            match t.outcome {
                Outcome::Collapses => {
                    say(&collapse_message(root, alt, r.value, &t, false, false));
                    if t.score > chosen.value + SWITCH_MARGIN {
                        *chosen = Candidate { mv: alt, value: t.score, pv: r.pv };
                    }
                    excluded.push(alt);
                }
                Outcome::Holds | Outcome::Unknown => {
                    let how = if t.outcome == Outcome::Holds {
                        format!("keeps its edge with {K} moves left before the fifty-move draw")
                    } else {
                        "was not refuted by the test (a passed pawn, or no time left)".to_string()
                    };
                    say(&format!("fortress: {} ({}) {how}", root.san(alt), pawns(r.value)));
                    *chosen = Candidate { mv: alt, value: r.value, pv: r.pv };
                    break;
                }
            }
        }
    }

    /// After the best move `chosen`, a reversible one, collapsed: the side's captures and
    /// pawn moves are tested; the first that keeps at least two pawns under the test is
    /// played.
    fn breakthrough(
        &mut self,
        env: &Env,
        root: &Position,
        keys: &[u64],
        budget: &Budget,
        chosen: &mut Candidate,
        say: &mut dyn FnMut(&str),
    ) {
        let us = root.side_to_move();
        let tries: Vec<Move> = irreversible_moves(root, chosen.mv).into_iter().take(MAX_BREAKTHROUGHS).collect();
        for m in tries {
            if budget.exhausted(self.nodes) || env.control.stop.load(Ordering::Relaxed) {
                break;
            }
            let t = self.progress_test(env, root, &[m], keys, us, ATTACK_STAGES, K, budget);
            if t.outcome == Outcome::Holds && t.score >= TRIGGER {
                say(&format!(
                    "fortress: breakthrough {} keeps {} with {K} moves left before the fifty-move draw",
                    root.san(m),
                    pawns(t.score)
                ));
                let pv = std::iter::once(m).chain(t.line.iter().copied()).collect();
                *chosen = Candidate { mv: m, value: t.score, pv };
                return;
            }
        }
    }

    /// The side to move is behind: is there a move after which the opponent cannot make
    /// progress?
    #[allow(clippy::too_many_arguments)]
    fn defend(
        &mut self,
        env: &Env,
        root: &Position,
        keys: &[u64],
        result: &SearchResult,
        best: Move,
        budget: &Budget,
        say: &mut dyn FnMut(&str),
    ) -> Option<Decision> {
        let them = !root.side_to_move();
        let mut found: Option<(Candidate, Test)> = None;
        let candidates = std::iter::once(best).chain(irreversible_moves(root, best));
        for (i, m) in candidates.take(MAX_DEFENCES).enumerate() {
            if i > 0 && (budget.exhausted(self.nodes) || env.control.stop.load(Ordering::Relaxed)) {
                break;
            }
            let line = if m == best { result.pv.clone() } else { vec![m] };
            let t = self.progress_test(env, root, &line, keys, them, DEFENCE_STAGES, K, budget);
            if t.outcome != Outcome::Collapses {
                continue;
            }
            if !self.confirmed(env, root, &line, keys, them, DEFENCE_STAGES, budget, say) {
                continue;
            }
            let value = -t.score;
            if m == best {
                say(&collapse_message(root, m, result.value, &t, true, true));
                return Some(Decision { best, value, pv: result.pv.clone() });
            }
            if found.as_ref().is_none_or(|(c, _)| value > c.value) {
                let pv = std::iter::once(m).chain(t.line.iter().copied()).collect();
                found = Some((Candidate { mv: m, value, pv }, t));
            }
        }
        let (c, t) = found?;
        say(&collapse_message(root, c.mv, -INFINITE, &t, true, true));
        say(&format!(
            "fortress: playing {} ({}) instead of {} ({})",
            root.san(c.mv),
            pawns(c.value),
            root.san(best),
            pawns(result.value)
        ));
        Some(Decision { best: c.mv, value: c.value, pv: c.pv })
    }

    /// Whether the collapse of `line[0]`'s test holds with [`K_CONFIRM`] moves left too;
    /// a search that keeps the edge there is reported as slow progress.
    #[allow(clippy::too_many_arguments)]
    fn confirmed(
        &mut self,
        env: &Env,
        root: &Position,
        line: &[Move],
        keys: &[u64],
        ahead: Color,
        stages: usize,
        budget: &Budget,
        say: &mut dyn FnMut(&str),
    ) -> bool {
        let t = self.progress_test(env, root, line, keys, ahead, stages, K_CONFIRM, budget);
        match t.outcome {
            Outcome::Collapses => true,
            Outcome::Holds => {
                say(&format!(
                    "fortress: after {} the score falls with {K} moves left before the fifty-move draw but holds \
                     ({}) with {K_CONFIRM}: slow progress, not a fortress",
                    root.san(line[0]),
                    pawns(t.score)
                ));
                false
            }
            Outcome::Unknown => false,
        }
    }

    /// The progress test of the root move `line[0]` for the side `ahead`: searches with
    /// only [`K`] moves left before the fifty-move draw, repeated after the line's first
    /// irreversible move for up to `stages` stages. The test starts after the move and the
    /// irreversible moves that follow it at once in `line` (the normal search's line: an
    /// exchange is played out before the test, which saves a stage).
    #[allow(clippy::too_many_arguments)]
    fn progress_test(
        &mut self,
        env: &Env,
        root: &Position,
        line: &[Move],
        keys: &[u64],
        ahead: Color,
        stages: usize,
        k: u32,
        budget: &Budget,
    ) -> Test {
        let mut keys = keys.to_vec();
        let mut pos = root.play(line[0]);
        for &m in line.iter().skip(1).take(MAX_EXCHANGE_PLIES) {
            if !pos.is_legal(m) || !is_irreversible(&pos, m) {
                break;
            }
            keys.push(pos.key());
            pos = pos.play(m);
        }
        let mut test = Test { outcome: Outcome::Unknown, score: 0, stage: 0, line: Vec::new() };
        for stage in 1..=stages {
            test.stage = stage;
            if budget.exhausted(self.nodes) {
                return test;
            }
            // A passed pawn of the side ahead is progress waiting to be made (a slow win
            // such as KBPK with the defending king in front collapses at small k): no
            // fortress. At the first stage the test says nothing; later, the edge held.
            if has_passed_pawn(&pos, ahead) {
                if stage > 1 {
                    test.outcome = Outcome::Holds;
                }
                return test;
            }
            let mut p = pos.clone();
            p.set_clocks(100 - 2 * k, p.fullmove_number());
            // Scores under the advanced clock are not the position's: a fresh table.
            self.tt.clear();
            let part = budget.part(self.nodes);
            let Some(r) = self.search(env, true, &p, &keys, Vec::new(), probe_depth(k), part) else { return test };
            if r.best.is_none() {
                // Mate or stalemate at the stage's root: the search's value is exact.
                test.score = if p.side_to_move() == ahead { r.value } else { -r.value };
                test.outcome = if test.score <= COLLAPSE { Outcome::Collapses } else { Outcome::Holds };
                return test;
            }
            if r.depth < verdict_depth(k) {
                return test;
            }
            test.score = if p.side_to_move() == ahead { r.value } else { -r.value };
            if stage == 1 {
                test.line = r.pv.clone();
            }
            if test.score <= COLLAPSE {
                test.outcome = Outcome::Collapses;
                return test;
            }
            if is_decisive(test.score) || stage == stages {
                test.outcome = Outcome::Holds;
                return test;
            }
            // Follow the line to its first irreversible move and test again from there.
            let mut q = p.clone();
            let mut reached = false;
            for &m in &r.pv {
                if !q.is_legal(m) {
                    break;
                }
                let irreversible = is_irreversible(&q, m);
                keys.push(q.key());
                q = q.play(m);
                if irreversible {
                    reached = true;
                    break;
                }
            }
            if !reached {
                test.outcome = Outcome::Holds;
                return test;
            }
            pos = q;
        }
        test
    }

    /// One search of `pos` (after the positions `keys`) to `depth` within `budget`, on the
    /// test's table (`probe`) or the main one; `None` when stopped from outside.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        env: &Env,
        probe: bool,
        pos: &Position,
        keys: &[u64],
        searchmoves: Vec<Move>,
        depth: i32,
        budget: Budget,
    ) -> Option<SearchResult> {
        let limits =
            Limits { depth: Some(depth), nodes: budget.nodes.map(|n| n.max(1)), searchmoves, ..Limits::default() };
        let now = Instant::now();
        let time = TimeManager {
            start: now,
            soft: None,
            hard: budget.deadline.map(|d| d.saturating_duration_since(now)),
            fixed: false,
        };
        let sh = Shared {
            tt: if probe { &self.tt } else { env.main_tt },
            control: env.control,
            abort: AtomicBool::new(false),
            nodes: vec![AtomicU64::new(0)],
            tbhits: AtomicU64::new(0),
            tb: env.tb,
            tb_rule: env.tb_rule,
            tb_root: None,
            limits: &limits,
            time,
            opts: &env.opts,
            root_side: pos.side_to_move(),
            net: env.net,
            currmove: None,
            progress_after: Duration::MAX,
            fortress: None,
        };
        self.worker.start_search(pos, keys, &sh);
        let r = self.worker.iterate(&sh, &mut |_| {});
        self.nodes += sh.total_nodes();
        if env.control.stop.load(Ordering::Relaxed) {
            return None;
        }
        Some(r)
    }
}

/// `side` has a pawn with no enemy pawn in front of it on its own or a neighbouring file.
fn has_passed_pawn(pos: &Position, side: Color) -> bool {
    let theirs = pos.pieces(!side, Role::Pawn).0;
    pos.pieces(side, Role::Pawn).any(|sq| crate::eval::masks::PASSED_SPAN[side.index()][sq.index()] & theirs == 0)
}

/// A capture, pawn move or promotion: it resets the fifty-move counter.
fn is_irreversible(pos: &Position, m: Move) -> bool {
    m.is_promotion() || super::ordering::is_capture(pos, m) || pos.role_at(m.from()) == Some(Role::Pawn)
}

/// The captures, pawn moves and promotions of the side to move other than `except`, in the
/// order they are tested: captures by the victim's value, then pawn moves.
fn irreversible_moves(root: &Position, except: Move) -> Vec<Move> {
    let value = |r: Role| match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    };
    let mut moves: Vec<(i32, Move)> = root
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| m != except && is_irreversible(root, m))
        .map(|m| {
            let class = if super::ordering::is_capture(root, m) {
                10 + value(super::ordering::captured_role(root, m))
            } else {
                0
            };
            (class, m)
        })
        .collect();
    moves.sort_by_key(|&(class, _)| std::cmp::Reverse(class));
    moves.into_iter().map(|(_, m)| m).collect()
}

/// `info string` text for a move whose test collapsed. `normal` is its normal score
/// (side to move's view) when known; `by_opponent`: the side ahead is the opponent;
/// `confirmed`: the test with [`K_CONFIRM`] moves left collapsed too.
fn collapse_message(root: &Position, m: Move, normal: i32, t: &Test, by_opponent: bool, confirmed: bool) -> String {
    let normal = if normal > -INFINITE { format!(" ({} by the normal search)", pawns(normal)) } else { String::new() };
    let (who, scored) = if by_opponent { ("the opponent", -t.score) } else { ("the side to move", t.score) };
    let confirmed = if confirmed { format!(", confirmed with {K_CONFIRM} moves left") } else { String::new() };
    format!(
        "fortress: after {}{normal} {who} cannot force a capture or pawn move that keeps its edge: with {K} moves \
         left before the fifty-move draw its score falls to {} (test stage {}{confirmed}); suspected fortress, scored {}",
        root.san(m),
        pawns(t.score),
        t.stage,
        pawns(scored)
    )
}

/// Centipawns as pawns with a sign, `+1.25`.
fn pawns(v: i32) -> String {
    format!("{:+.2}", v as f64 / 100.0)
}
