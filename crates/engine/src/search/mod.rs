//! The search: public types and the [`Engine`] that runs searches in process.
//!
//! ```
//! use bastion_engine::{Engine, EngineOptions, Limits, Score};
//! use bastion_core::Position;
//! let mut engine = Engine::new(EngineOptions::default());
//! let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
//! let result = engine.search(&pos, &[], &Limits::depth(4), &mut |_| {});
//! assert_eq!(pos.to_uci(result.best.unwrap()), "d1d8");
//! assert_eq!(result.score, Score::Mate(1));
//! ```

mod alphabeta;
mod correction;
mod fortress;
pub mod ordering;
mod qsearch;
mod thread;
pub mod time;

use crate::nnue::Network;
use crate::options::EngineOptions;
use crate::score::Score;
use crate::tb::{rank_root, ProbeRule, RootRanking, TablebaseProbe};
use crate::tt::{TranspositionTable, TtShare};
use bastion_core::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use thread::Worker;

/// What limits a search. All unset (the default) means "search until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's remaining time in milliseconds.
    pub wtime_ms: Option<u64>,
    /// Black's remaining time.
    pub btime_ms: Option<u64>,
    /// White's increment per move.
    pub winc_ms: Option<u64>,
    /// Black's increment.
    pub binc_ms: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes (all threads).
    pub nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<i32>,
    /// Exact time for this move.
    pub movetime_ms: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: ignore time until `ponderhit`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(d: i32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }
    /// A fixed-node search.
    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }
    /// A fixed-time search.
    pub fn movetime(ms: u64) -> Limits {
        Limits { movetime_ms: Some(ms), ..Limits::default() }
    }

    /// True when a clock was given (`wtime` or `btime`): the search is then timed, and a
    /// missing clock of the side to move counts as 0, so that the engine moves at once
    /// instead of searching until `stop`. As in Stockfish, increments and `movestogo` alone
    /// do not turn time management on, so `go depth 5 winc 100` searches to depth 5.
    pub fn has_clock(&self) -> bool {
        self.wtime_ms.is_some() || self.btime_ms.is_some()
    }

    /// True when only `stop` ends the search: `infinite`, `ponder` (until `ponderhit`), or
    /// no limit of any kind (a bare `go`).
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || self.ponder
            || !(self.has_clock()
                || self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime_ms.is_some()
                || self.mate.is_some())
    }
}

/// The root move the main thread starts searching (UCI `currmove`), reported once a
/// search has run for [`EngineOptions::progress_after_ms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrMove {
    /// The iteration's depth.
    pub depth: i32,
    /// The move.
    pub mv: Move,
    /// Its 1-based number in the iteration's move order (counting the MultiPV lines before it).
    pub number: usize,
}

/// Receives [`CurrMove`] reports; called from the search's main thread.
pub type CurrMoveReport = Arc<dyn Fn(&CurrMove) + Send + Sync>;

/// Receives the engine's `info string` messages (the fortress-aware mode's reasons);
/// called from the search's main thread.
pub type MessageReport = Arc<dyn Fn(&str) + Send + Sync>;

/// How an reported score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// Exact.
    Exact,
    /// At least this (fail high of an aspiration window).
    Lower,
    /// At most this (fail low).
    Upper,
}

/// One principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// 1-based MultiPV index.
    pub multipv: usize,
    /// Score from the side to move's view.
    pub score: Score,
    /// Internal value behind `score`.
    pub value: i32,
    /// Bound type of the score.
    pub bound: ScoreBound,
    /// The moves.
    pub pv: Vec<Move>,
}

/// A progress report: one PV line at one depth.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// The line.
    pub line: PvLine,
    /// Nodes so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Hash usage in permille.
    pub hashfull: u32,
    /// Tablebase hits.
    pub tbhits: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move (`None` only when there is no legal move).
    pub best: Option<Move>,
    /// Expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: Score,
    /// Internal value of the best move.
    pub value: i32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// All MultiPV lines of the last completed depth.
    pub lines: Vec<PvLine>,
    /// Last completed depth.
    pub depth: i32,
    /// Maximum selective depth.
    pub seldepth: i32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Milliseconds used.
    pub time_ms: u64,
}

/// Flags shared between a running search and whoever controls it (e.g. the UCI loop).
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set to stop the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering; clearing it is `ponderhit`.
    pub pondering: AtomicBool,
}

impl SearchControl {
    /// Requests the search to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    /// Switches a ponder search to a normal timed one.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }
}

/// State shared by the threads of one search.
pub(crate) struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop and ponder flags set from outside.
    pub control: &'a SearchControl,
    /// Set by the main thread to end helper threads.
    pub abort: AtomicBool,
    /// Nodes per thread.
    pub nodes: Vec<AtomicU64>,
    /// Tablebase hits of all threads.
    pub tbhits: AtomicU64,
    /// The tablebases, if any are loaded.
    pub tb: Option<&'a dyn TablebaseProbe>,
    /// Which positions the search probes for WDL.
    pub tb_rule: ProbeRule,
    /// The root moves as the tables rank them, when they cover the root.
    pub tb_root: Option<RootRanking>,
    /// What limits the search.
    pub limits: &'a Limits,
    /// The time allocated to it.
    pub time: time::TimeManager,
    /// The engine's options.
    pub opts: &'a EngineOptions,
    /// The side to move at the root (contempt applies against it).
    pub root_side: bastion_core::Color,
    /// The neural evaluation, when one is loaded (else the hand-written one).
    pub net: Option<&'a Network>,
    /// Where the main thread reports the root move it starts, if anywhere.
    pub currmove: Option<&'a (dyn Fn(&CurrMove) + Send + Sync)>,
    /// From this time into the search on, the main thread also reports aspiration-window
    /// failures and the root move it starts.
    pub progress_after: std::time::Duration,
    /// The fortress phase after the main search (option `FortressAware`), if this search
    /// may run it.
    pub fortress: Option<&'a fortress::Plan>,
}

impl Shared<'_> {
    /// Nodes of all threads.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
    /// True once the main thread or the user ended the search.
    pub fn should_abort(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.control.stop.load(Ordering::Relaxed)
    }
    /// True once a main search followed by the fortress phase has used its share.
    pub fn main_phase_over(&self) -> bool {
        self.fortress.is_some_and(|plan| plan.main_phase_over(self))
    }
}

/// A chess engine: options, transposition table, per-thread histories and an optional tablebase.
pub struct Engine {
    opts: EngineOptions,
    tt: Arc<TranspositionTable>,
    workers: Vec<Worker>,
    control: Arc<SearchControl>,
    tb: Option<Arc<dyn TablebaseProbe>>,
    net: Option<Arc<Network>>,
    currmove: Option<CurrMoveReport>,
    message: Option<MessageReport>,
    /// The fortress phase's searcher, while `FortressAware` is on.
    fortress: Option<fortress::Prober>,
    /// The link of `tt` to other engines' tables, if any.
    tt_share: Option<Arc<TtShare>>,
}

impl Engine {
    /// A fresh engine, evaluating with the built-in network ([`Network::builtin`]).
    pub fn new(opts: EngineOptions) -> Engine {
        // The KPK bitbase takes ~0.1 s to build: start it now, off the search's path.
        crate::eval::kpk::prepare_in_background();
        let tt = Arc::new(TranspositionTable::new(opts.hash_mb));
        let workers = (0..opts.threads.max(1)).map(Worker::new).collect();
        Engine {
            tt,
            workers,
            control: Arc::new(SearchControl::default()),
            tb: None,
            net: Some(Network::builtin()),
            currmove: None,
            message: None,
            fortress: opts.fortress_aware.then(fortress::Prober::new),
            tt_share: None,
            opts,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        &self.opts
    }

    /// Changes options; resizes the hash table and thread pool as needed. If the new hash
    /// size cannot be allocated, the old table and size are kept and an error is returned
    /// (the other options are still applied).
    pub fn set_options(&mut self, mut opts: EngineOptions) -> Result<(), String> {
        let mut result = Ok(());
        if opts.hash_mb != self.opts.hash_mb {
            // Free the old table first so that its memory can be reused.
            self.tt = Arc::new(TranspositionTable::new(1));
            match TranspositionTable::try_new(opts.hash_mb) {
                Some(tt) => self.tt = Arc::new(tt),
                None => {
                    result =
                        Err(format!("cannot allocate {} MB of hash; keeping {} MB", opts.hash_mb, self.opts.hash_mb));
                    opts.hash_mb = self.opts.hash_mb;
                    self.tt = Arc::new(
                        TranspositionTable::try_new(opts.hash_mb).unwrap_or_else(|| TranspositionTable::new(1)),
                    );
                }
            }
            if let Some(share) = &self.tt_share {
                share.attach(&self.tt);
            }
        }
        if opts.threads.max(1) != self.workers.len() {
            self.workers = (0..opts.threads.max(1)).map(Worker::new).collect();
        }
        if opts.fortress_aware != self.fortress.is_some() {
            self.fortress = opts.fortress_aware.then(fortress::Prober::new);
        }
        self.opts = opts;
        result
    }

    /// Installs (or removes) the link that shares this engine's table entries with other
    /// engines' tables (the ranks of a cluster search); it follows the engine to a new
    /// table when the hash size changes. Without one (the default) nothing is collected.
    pub fn set_tt_share(&mut self, share: Option<Arc<TtShare>>) {
        if let Some(old) = self.tt_share.take() {
            old.detach();
        }
        if let Some(share) = &share {
            share.attach(&self.tt);
        }
        self.tt_share = share;
    }

    /// Installs (or removes) a tablebase prober.
    pub fn set_tablebase(&mut self, tb: Option<Arc<dyn TablebaseProbe>>) {
        self.tb = tb;
    }

    /// Evaluates with `net` (a neural network) instead of the hand-written evaluation; `None` goes back.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
        for w in &mut self.workers {
            w.nnue.clear();
        }
        if let Some(prober) = &mut self.fortress {
            prober.clear();
        }
    }

    /// Installs (or removes) the receiver of `currmove` reports for the following searches.
    pub fn set_currmove_report(&mut self, report: Option<CurrMoveReport>) {
        self.currmove = report;
    }

    /// Installs (or removes) the receiver of `info string` messages for the following searches.
    pub fn set_message_report(&mut self, report: Option<MessageReport>) {
        self.message = report;
    }

    /// The stop/ponderhit flags of this engine's searches.
    pub fn control(&self) -> Arc<SearchControl> {
        Arc::clone(&self.control)
    }

    /// Forgets everything learned (new game): hash table and histories.
    pub fn clear(&mut self) {
        self.tt.clear();
        for w in &mut self.workers {
            w.clear();
        }
        if let Some(prober) = &mut self.fortress {
            prober.clear();
        }
    }

    /// Searches `pos`. `history` holds the keys of the positions played before it,
    /// oldest first (for repetition detection). `info` receives one report per
    /// PV line at every completed depth, and once the search has run for
    /// [`EngineOptions::progress_after_ms`] a full set of lines at every aspiration failure.
    /// In `infinite` and `ponder` mode the call returns only after `stop` (or `ponderhit`).
    /// For a ponder search, set `control().pondering` before calling (the flag is
    /// not set here so that an early `ponderhit` from another thread is not lost);
    /// a `stop` requested before the call ends the search at once.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        // The flags are not reset here: a `stop` or `ponderhit` sent by another thread
        // just before this call must not be lost. They are reset when the search ends.
        if !limits.ponder {
            self.control.pondering.store(false, Ordering::SeqCst);
        }
        self.tt.new_search();
        let tb = self.tb.as_deref();
        let mut tb_rule = ProbeRule::new(tb, &self.opts.syzygy);
        let time = time::TimeManager::new(
            start,
            limits,
            pos.side_to_move(),
            self.opts.move_overhead_ms,
            self.opts.params.time(),
        );
        // Under a clock, DTZ at the root may take at most half the move's hard limit.
        let tb_deadline = time.hard.filter(|_| limits.has_clock() && !time.fixed).map(|h| start + h / 2);
        let tb_root = tb.and_then(|t| rank_root(t, pos, history, &tb_rule, tb_deadline));
        if tb_root.as_ref().is_some_and(|r| !r.probe_below) {
            tb_rule.cardinality = 0;
        }
        let plan =
            self.fortress.as_ref().and_then(|_| fortress::Plan::for_search(&self.opts, pos, limits, tb_root.is_some()));
        let shared = Shared {
            tt: &self.tt,
            control: &self.control,
            abort: AtomicBool::new(false),
            nodes: (0..self.workers.len()).map(|_| AtomicU64::new(0)).collect(),
            // The root's probes count as hits, as in Stockfish.
            tbhits: AtomicU64::new(tb_root.as_ref().map_or(0, |r| r.probes)),
            tb,
            tb_rule,
            tb_root,
            limits,
            time,
            opts: &self.opts,
            root_side: pos.side_to_move(),
            net: self.net.as_deref(),
            currmove: self.currmove.as_deref(),
            progress_after: std::time::Duration::from_millis(self.opts.progress_after_ms),
            fortress: plan.as_ref(),
        };
        let (main, helpers) = self.workers.split_first_mut().expect("at least one worker");
        let result = std::thread::scope(|s| {
            for h in helpers.iter_mut() {
                let sh = &shared;
                s.spawn(move || {
                    h.start_search(pos, history, sh);
                    h.iterate(sh, &mut |_| {});
                });
            }
            main.start_search(pos, history, &shared);
            let r = main.iterate(&shared, info);
            shared.abort.store(true, Ordering::SeqCst);
            r
        });
        let mut result = result;
        result.nodes = shared.total_nodes();
        // The fortress phase (never in infinite or ponder mode, which have no plan).
        if let (Some(plan), Some(prober)) = (&plan, self.fortress.as_mut()) {
            if plan.armed() && !self.control.stop.load(Ordering::SeqCst) {
                let budget = fortress::Budget::after_main(&shared.time, limits, result.nodes);
                let mut opts = self.opts.clone();
                opts.multipv = 1;
                opts.params.contempt = 0;
                let env = fortress::Env {
                    control: &self.control,
                    tb,
                    tb_rule: shared.tb_rule,
                    opts,
                    net: self.net.as_deref(),
                    main_tt: &self.tt,
                };
                let message = self.message.as_deref();
                let mut say = |m: &str| {
                    if let Some(report) = message {
                        report(m);
                    }
                };
                let (decision, nodes) = prober.refine(&env, pos, history, &result, budget, &mut say);
                result.nodes += nodes;
                if let Some(d) = decision {
                    apply_decision(&mut result, d);
                    let line = result.lines[0].clone();
                    let ms = start.elapsed().as_millis() as u64;
                    info(&SearchInfo {
                        depth: result.depth.max(1),
                        seldepth: result.seldepth.max(1),
                        line,
                        nodes: result.nodes,
                        nps: thread::nodes_per_second(result.nodes, ms),
                        hashfull: self.tt.hashfull(),
                        tbhits: shared.tbhits.load(Ordering::Relaxed),
                        time_ms: ms,
                    });
                }
            }
        }
        // UCI: in infinite or ponder mode, the result waits for stop/ponderhit.
        while (limits.infinite || self.control.pondering.load(Ordering::SeqCst))
            && !self.control.stop.load(Ordering::SeqCst)
        {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        self.control.stop.store(false, Ordering::SeqCst);
        self.control.pondering.store(false, Ordering::SeqCst);
        result.time_ms = start.elapsed().as_millis() as u64;
        result
    }
}

/// Puts the fortress phase's decision into the search result: best move, score, line and
/// the first reported line.
fn apply_decision(result: &mut SearchResult, d: fortress::Decision) {
    use crate::score::FromValue;
    if result.best != Some(d.best) {
        result.ponder = d.pv.get(1).copied();
    }
    result.best = Some(d.best);
    result.value = d.value;
    result.score = Score::from_value(d.value);
    result.pv = if d.pv.first() == Some(&d.best) { d.pv } else { vec![d.best] };
    let line = PvLine {
        multipv: 1,
        score: result.score,
        value: result.value,
        bound: ScoreBound::Exact,
        pv: result.pv.clone(),
    };
    match result.lines.first_mut() {
        Some(first) => *first = line,
        None => result.lines.push(line),
    }
}
