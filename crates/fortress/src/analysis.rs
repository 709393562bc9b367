//! Driving the engine: the iterative-deepening MultiPV analysis, the
//! breakthrough search (Guid & Bratko 2012, §4, Figs. 5–6) and fortress avoidance.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bastion_core::{Color, Position, TablebaseProbe};
use bastion_uci_client::{Engine, GoParams, SearchControl, UciError};
use serde::{Deserialize, Serialize};

use crate::classify::{classify, material_balance, rises, Basis, Evidence, Side, Thresholds, Verdict};
use crate::curve::{Curve, DepthTable, DepthTime, Point};
use crate::error::FortressError;
use crate::probe::{
    applicable, clock_for, collapsed, combine, follow_to_change, gains_material, is_plain_push, judge_stage, summarise,
    with_halfmove_clock, ProbeConfig, ProbeOutcome, ProbeStep, ProgressTest,
};
use crate::score::Eval;
use crate::tablebase::{lookup, verdict_of, TableValue};

/// Options of an analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// First depth recorded (Guid & Bratko 2012 start at 2).
    pub min_depth: u32,
    /// Deepest depth searched.
    pub max_depth: u32,
    /// K: how many best moves are followed (MultiPV).
    pub multipv: u32,
    /// Classifier thresholds.
    pub thresholds: Thresholds,
    /// Search every legal move for a breakthrough when the verdict is fortress.
    pub breakthrough: bool,
    /// How many breakthrough candidates get their opponent replies checked.
    pub candidates_checked: u32,
    /// How many best opponent replies are followed per candidate.
    pub replies: u32,
    /// Judge the position after each of the top moves (fortress avoidance).
    pub avoid: bool,
    /// Wall-clock limit for one engine search; the depths reached by then
    /// are kept.
    pub search_limit_ms: u64,
    /// The progress test (fifty-move counter advanced).
    #[serde(default)]
    pub probe: ProbeConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            min_depth: 2,
            max_depth: 20,
            multipv: 5,
            thresholds: Thresholds::default(),
            breakthrough: true,
            candidates_checked: 2,
            replies: 2,
            avoid: false,
            search_limit_ms: 120_000,
            probe: ProbeConfig::default(),
        }
    }
}

impl Config {
    /// Checks that the options make sense together.
    pub fn validate(&self) -> Result<(), FortressError> {
        let bad = |s: &str| Err(FortressError::Config(s.to_owned()));
        if self.min_depth == 0 || self.max_depth < self.min_depth {
            return bad("need 1 <= min-depth <= max-depth");
        }
        if self.max_depth > 128 {
            return bad("max-depth must be at most 128");
        }
        if self.multipv == 0 || self.multipv > 64 {
            return bad("moves (MultiPV) must be between 1 and 64");
        }
        let t = &self.thresholds;
        if t.window < 2 {
            return bad("window must be at least 2 depths");
        }
        if !(t.tolerance >= 0.0 && t.spread >= 0.0 && t.rise > 0.0 && t.eval_edge >= 0.0) {
            return bad("tolerance and spread must be >= 0, rise > 0");
        }
        if t.decisive.is_nan() {
            return bad("decisive must be a number (inf disables it)");
        }
        if self.search_limit_ms == 0 {
            return bad("search limit must be positive");
        }
        self.probe.validate().map_err(FortressError::Config)?;
        Ok(())
    }
}

/// A move whose curve keeps rising although the position looked like a
/// fortress, with the opponent's best replies followed as in Fig. 6.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Breakthrough {
    /// The candidate move's curve (depths of the analysed position).
    pub curve: Curve,
    /// Whether it ends above the best of the top moves.
    pub overtakes: bool,
    /// Curves of the opponent's best replies after the move.
    pub replies: Vec<Curve>,
    /// Whether every followed reply's curve rises too (replies were checked
    /// only for the first `candidates_checked` candidates).
    pub replies_rise: Option<bool>,
    /// The move starts the progress test's line at the root and the side
    /// ahead's edge held through that line's stages: the test, not the
    /// curve, found it (its curve may stay below the top moves', as an
    /// engine scores a pawn sacrifice lower until it sees the point).
    #[serde(default)]
    pub by_progress_test: bool,
}

/// The judgement of the position after one move (fortress avoidance).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveJudgement {
    /// Move in SAN.
    pub san: String,
    /// Move in UCI.
    pub uci: String,
    /// The move's evaluation at the root's final depth.
    pub eval: Eval,
    /// Verdict on the position after it.
    pub verdict: Verdict,
    /// Why.
    pub reason: String,
    /// The progress test on the position after it, when run.
    pub progress_test: Option<ProgressTest>,
}

/// Fortress avoidance: is the best move walking into a fortress?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Avoidance {
    /// Each top move judged, in the engine's order.
    pub judged: Vec<MoveJudgement>,
    /// The best move leads into a fortress.
    pub best_is_fortress: bool,
    /// The best-ranked move that keeps progress, when the best one does not.
    pub alternative: Option<MoveJudgement>,
}

/// Result of [`analyse`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The analysed position.
    pub fen: String,
    /// Engine name as it introduced itself.
    pub engine: String,
    /// The options used.
    pub config: Config,
    /// The top K moves at the final depth, each over all depths.
    pub curves: Vec<Curve>,
    /// The position's backed-up value (best line) at each depth.
    pub principal: Vec<Point>,
    /// The judgement.
    pub verdict: Verdict,
    /// Its evidence (`basis` names the evidence that decided).
    pub evidence: Evidence,
    /// The verdict of the curves alone (Guid & Bratko 2012, §3).
    pub curve_verdict: Verdict,
    /// The progress test, when it was run.
    pub progress_test: Option<ProgressTest>,
    /// Earliest depth from which the verdict no longer changed.
    pub verdict_depth: Option<u32>,
    /// Milliseconds of search until that depth was complete.
    pub verdict_ms: Option<u64>,
    /// Cumulative search time per depth (Fig. 7).
    pub times: Vec<DepthTime>,
    /// Breakthrough candidates (only searched when the verdict is fortress).
    pub breakthroughs: Vec<Breakthrough>,
    /// Whether the breakthrough search ran.
    pub breakthrough_searched: bool,
    /// Fortress avoidance, when asked for.
    pub avoidance: Option<Avoidance>,
    /// The tables' value of the analysed position, when tables were given and
    /// cover it (it then decides the verdict).
    #[serde(default)]
    pub tablebase: Option<TableValue>,
    /// Searches that hit the time limit before reaching the depth asked.
    pub truncated_searches: u32,
    /// Total wall time of the analysis, milliseconds.
    pub elapsed_ms: u64,
}

/// What the analysis is doing, for progress displays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// The main MultiPV search reached this depth.
    Main {
        /// Depth completed.
        depth: u32,
    },
    /// One exact line of the main MultiPV search: a point of a curve as it comes in.
    Line {
        /// Search depth of the line.
        depth: u32,
        /// 1-based rank of the line at that depth.
        multipv: u32,
        /// Its first move (UCI).
        uci: String,
        /// Its score, White's view.
        eval: Eval,
    },
    /// Searching the `index`-th of `total` moves for a breakthrough.
    Breakthrough {
        /// 1-based.
        index: usize,
        /// Legal moves.
        total: usize,
    },
    /// Following an opponent's replies to a candidate.
    Replies {
        /// The candidate in SAN.
        san: String,
    },
    /// The progress test: a search with `moves_left` moves before the
    /// fifty-move draw, at `stage`.
    Probe {
        /// Stage (1 = the position itself).
        stage: u32,
        /// Moves left before the draw.
        moves_left: u32,
    },
    /// Judging the position after the `index`-th top move.
    Avoid {
        /// 1-based.
        index: usize,
        /// Moves judged.
        total: usize,
    },
}

/// What a caller lends an analysis beyond its options: endgame tables and a
/// stop flag. Neither is part of [`Config`], which is plain data (serialised
/// into every [`Analysis`]).
#[derive(Clone, Copy, Default)]
pub struct Hooks<'a> {
    /// Endgame tables (Syzygy, Bastion's DTM tables or both, behind
    /// bastion-core's trait). Where they cover the position, or a position
    /// the progress test reaches after a capture or pawn move, their value
    /// decides (basis `tablebase`).
    pub tablebase: Option<&'a dyn TablebaseProbe>,
    /// Set it (from another thread) to stop the analysis: the running search
    /// is ended with UCI `stop` as soon as the engine next reports, no new
    /// search starts, and the analysis returns [`FortressError::Stopped`].
    /// The engine process stays usable for the next analysis.
    pub stop: Option<&'a AtomicBool>,
}

impl std::fmt::Debug for Hooks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hooks")
            .field("tablebase", &self.tablebase.map(|t| t.max_pieces()))
            .field("stop", &self.stop)
            .finish()
    }
}

/// Analyses `fen` with `engine`; see [`analyse_with_progress`].
pub fn analyse(fen: &str, config: &Config, engine: &mut Engine) -> Result<Analysis, FortressError> {
    analyse_with_progress(fen, config, engine, &mut |_| {})
}

/// Analyses `fen`: MultiPV-K iterative deepening to `max_depth`, the verdict
/// with its evidence, and when it is a fortress a search of every legal move
/// for a breakthrough; `progress` hears about each stage. No tables, no stop
/// flag: see [`analyse_with`].
pub fn analyse_with_progress(
    fen: &str,
    config: &Config,
    engine: &mut Engine,
    progress: &mut dyn FnMut(Stage),
) -> Result<Analysis, FortressError> {
    analyse_with(fen, config, engine, Hooks::default(), progress)
}

/// [`analyse_with_progress`] with endgame tables and a stop flag (see
/// [`Hooks`]).
pub fn analyse_with(
    fen: &str,
    config: &Config,
    engine: &mut Engine,
    hooks: Hooks<'_>,
    progress: &mut dyn FnMut(Stage),
) -> Result<Analysis, FortressError> {
    config.validate()?;
    let started = Instant::now();
    let pos = Position::from_fen(fen).map_err(|e| FortressError::Fen { fen: fen.to_owned(), why: e.to_string() })?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(FortressError::NoLegalMoves);
    }
    let fen = pos.fen();
    let mut runner = Runner {
        engine,
        limit: Duration::from_millis(config.search_limit_ms),
        truncated: 0,
        tablebase: hooks.tablebase,
        stop: hooks.stop,
    };
    let k = config.multipv.min(legal.len() as u32);
    let table = runner.search(&fen, &[], pos.side_to_move(), config.max_depth, k, &mut |stage| progress(stage))?;
    let san = |p: &Position, uci: &str| p.parse_uci(uci).map(|m| p.san(m)).unwrap_or_else(|_| uci.to_owned());
    let top = table.final_moves();
    if top.is_empty() {
        return Err(FortressError::NoData(fen));
    }
    let curves = table.curves_for(&top, config.min_depth, 0, |m| san(&pos, m));
    let principal = table.principal(config.min_depth, 0);
    let material = material_balance(&pos);
    let t = &config.thresholds;
    let (curve_verdict, mut evidence) = classify(&principal, &curves, material, pos.side_to_move(), t);
    let times = table.times();
    let verdict_depth = stable_from(&principal, &curves, material, pos.side_to_move(), t, curve_verdict);
    let verdict_ms = verdict_depth.and_then(|d| times.iter().find(|x| x.depth == d).map(|x| x.ms));
    // Exact values first: where the tables cover the position, the curves
    // are kept for the plot but neither they nor the progress test decide.
    let tablebase = runner.tablebase.and_then(|tb| lookup(tb, &pos, &[]));
    let progress_test = match tablebase {
        Some(_) => None,
        None => runner.progress_test(&pos, &evidence, curve_verdict, config, progress)?,
    };
    let (verdict, basis, reason) = match &tablebase {
        Some(tv) => {
            let (v, b, r) = verdict_of(tv, material, t);
            if tv.winner.is_some() {
                evidence.ahead = tv.winner;
            }
            (v, b, format!("{r} (the curves alone said {curve_verdict}: {})", evidence.reason))
        }
        None => combine(curve_verdict, &evidence, progress_test.as_ref(), t),
    };
    evidence.basis = basis;
    evidence.reason = reason;

    let ahead: Color = evidence.ahead.map_or(pos.side_to_move(), Color::from);
    let mut breakthroughs = Vec::new();
    // The paper's breakthrough search (§4) is for positions that look like
    // fortresses: flat curves, whatever the progress test then says.
    let looks_flat = curve_verdict == Verdict::Fortress
        || (evidence.ahead.is_some() && evidence.range <= t.tolerance && evidence.mate.is_none());
    let breakthrough_searched =
        config.breakthrough && tablebase.is_none() && (verdict == Verdict::Fortress || looks_flat);
    if breakthrough_searched {
        let forced = progress_test.as_ref().and_then(|t| forcing_move(t, &curves));
        breakthroughs = runner.breakthroughs(&pos, config, ahead, &curves, forced.as_deref(), progress)?;
        if verdict == Verdict::Progress {
            if let Some(b) =
                breakthroughs.iter().find(|b| b.by_progress_test || (b.overtakes && b.replies_rise != Some(false)))
            {
                evidence.reason = format!("{}; breakthrough: {}", evidence.reason, b.curve.san);
            }
        }
    }
    let avoidance = if config.avoid {
        let lines: Vec<Vec<String>> = curves.iter().map(|c| table.line_of(&c.uci)).collect();
        Some(runner.avoidance(&pos, config, &curves, &lines, progress)?)
    } else {
        None
    };
    Ok(Analysis {
        fen,
        engine: runner.engine.name().unwrap_or("unknown engine").to_owned(),
        config: config.clone(),
        curves,
        principal,
        verdict,
        evidence,
        curve_verdict,
        progress_test,
        verdict_depth,
        verdict_ms,
        times,
        breakthroughs,
        breakthrough_searched,
        avoidance,
        tablebase,
        truncated_searches: runner.truncated,
        elapsed_ms: started.elapsed().as_millis() as u64,
    })
}

/// The earliest depth from which classifying the curves cut at every
/// deeper depth gives `final_verdict`.
pub fn stable_from(
    principal: &[Point],
    curves: &[Curve],
    material: i32,
    side_to_move: Color,
    t: &Thresholds,
    final_verdict: Verdict,
) -> Option<u32> {
    let mut from = None;
    for p in principal.iter().rev() {
        let cut: Vec<Point> = principal.iter().copied().filter(|x| x.depth <= p.depth).collect();
        let cut_curves: Vec<Curve> = curves.iter().map(|c| c.truncated(p.depth)).collect();
        if classify(&cut, &cut_curves, material, side_to_move, t).0 != final_verdict {
            break;
        }
        from = Some(p.depth);
    }
    from
}

/// Whose progress the test measures, against which edge, and whether the
/// curves rise (which lets a collapse be checked at the extended `k`).
struct Judge {
    side: Color,
    unconstrained: f64,
    rising: bool,
}

/// What following the progress test's stages found.
struct Stages {
    steps: Vec<ProbeStep>,
    changes: Vec<String>,
    outcome: ProbeOutcome,
    table: Option<TableValue>,
    /// Whether the extended `k` was tried, and whether its search finished.
    extended: Option<bool>,
}

/// The engine with the per-search settings.
struct Runner<'a> {
    engine: &'a mut Engine,
    limit: Duration,
    truncated: u32,
    tablebase: Option<&'a dyn TablebaseProbe>,
    stop: Option<&'a AtomicBool>,
}

impl Runner<'_> {
    /// Whether the caller asked the analysis to stop.
    fn stopping(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// An error when the caller asked the analysis to stop.
    fn check_stop(&self) -> Result<(), FortressError> {
        if self.stopping() {
            return Err(FortressError::Stopped);
        }
        Ok(())
    }

    /// One fresh search of `fen` + `moves` to `depth` with MultiPV `k`,
    /// collecting every depth's lines; `on_progress` hears [`Stage::Main`] for each
    /// new depth and [`Stage::Line`] for each exact line.
    fn search(
        &mut self,
        fen: &str,
        moves: &[String],
        side_to_move: Color,
        depth: u32,
        k: u32,
        on_progress: &mut dyn FnMut(Stage),
    ) -> Result<DepthTable, FortressError> {
        self.check_stop()?;
        // A fresh hash per search keeps curves of different searches
        // independent of the order they were run in.
        self.engine.new_game()?;
        self.engine.set_option("MultiPV", &k.max(1).to_string())?;
        self.engine.is_ready(Duration::from_secs(30))?;
        self.engine.position(fen, moves)?;
        let mut table = DepthTable::new(side_to_move);
        let started = Instant::now();
        self.engine.go(&GoParams::depth(depth.max(1)))?;
        let mut last_depth = 0;
        let mut watch = StopWatch { flag: self.stop, sent: false };
        let result = self.engine.wait_bestmove(self.limit, |info| {
            table.ingest(info, started.elapsed().as_millis() as u64);
            if let (Some(d), Some(score)) = (info.depth, info.score) {
                if d > last_depth {
                    last_depth = d;
                    on_progress(Stage::Main { depth: d });
                }
                if let (false, false, Some(first)) = (info.lowerbound, info.upperbound, info.pv.first()) {
                    let eval = Eval::from_score(score, side_to_move);
                    let multipv = info.multipv.unwrap_or(1);
                    on_progress(Stage::Line { depth: d, multipv, uci: first.clone(), eval });
                }
            }
            watch.poll()
        });
        self.check_stop()?;
        match result {
            Ok(_) => Ok(table),
            Err(e @ UciError::Timeout { .. }) => {
                // Keep what was reached, minus the unfinished last depth
                // (its later multipv lines never came).
                self.truncated += 1;
                let depths = table.depths();
                if depths.len() < 2 {
                    return Err(e.into());
                }
                Ok(table.without_depth(*depths.last().unwrap_or(&0)))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// One single-line search of `fen` to `depth` within `limit`: the depth
    /// of the deepest exact score (below `depth` when the limit cut the
    /// search short), the score and its principal variation (UCI).
    fn search_line(
        &mut self,
        fen: &str,
        depth: u32,
        searchmoves: &[String],
        limit: Duration,
    ) -> Result<Option<(u32, Eval, Vec<String>)>, FortressError> {
        self.check_stop()?;
        let side = Position::from_fen(fen).map(|p| p.side_to_move()).unwrap_or(Color::White);
        self.engine.new_game()?;
        self.engine.set_option("MultiPV", "1")?;
        self.engine.is_ready(Duration::from_secs(30))?;
        self.engine.position(fen, &[])?;
        self.engine.go(&GoParams { searchmoves: searchmoves.to_vec(), ..GoParams::depth(depth.max(1)) })?;
        let mut best: Option<(u32, Eval, Vec<String>)> = None;
        let mut watch = StopWatch { flag: self.stop, sent: false };
        let result = self.engine.wait_bestmove(limit, |info| {
            if let (Some(d), Some(score)) = (info.depth, info.score) {
                let first = info.multipv.unwrap_or(1) == 1;
                if first
                    && !info.lowerbound
                    && !info.upperbound
                    && !info.pv.is_empty()
                    && best.as_ref().map_or(true, |b| d >= b.0)
                {
                    best = Some((d, Eval::from_score(score, side), info.pv.clone()));
                }
            }
            watch.poll()
        });
        self.check_stop()?;
        match result {
            Ok(_) => Ok(best.map(|(d, e, pv)| (d.max(depth), e, pv))),
            Err(UciError::Timeout { .. }) => {
                self.truncated += 1;
                // The last depth reported may be unfinished: count it as not reached.
                Ok(best.map(|(d, e, pv)| (d.min(depth.saturating_sub(1)), e, pv)))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The progress test (see [`crate::probe`]) for the side `ev` names as
    /// ahead (or the side to move when nobody is), when it applies.
    /// `curve_verdict` is the curves' own verdict: a rising curve lets a
    /// first-stage collapse be checked once more at the extended `k`.
    fn progress_test(
        &mut self,
        pos: &Position,
        ev: &Evidence,
        curve_verdict: Verdict,
        config: &Config,
        progress: &mut dyn FnMut(Stage),
    ) -> Result<Option<ProgressTest>, FortressError> {
        let pc = &config.probe;
        if !pc.enabled || !applicable(pos) || ev.mate.is_some() || ev.final_depth == 0 {
            return Ok(None);
        }
        let side: Color = ev.ahead.map_or(pos.side_to_move(), Color::from);
        let unconstrained = ev.advantage;
        let rising = curve_verdict == Verdict::Progress && ev.basis == Basis::Rise;
        let judge = Judge { side, unconstrained, rising };
        let Stages { steps, changes, mut outcome, mut table, extended } =
            self.stages(pos, 1, Vec::new(), 0, &judge, pc, progress)?;
        let mut summary = match &table {
            Some(tv) => format!(
                "tablebase: after {} (the engine's line with the fifty-move counter advanced): {}",
                tv.line.join(" "),
                tv.describe()
            ),
            None => summarise(outcome, &steps, &changes),
        };
        match extended {
            Some(true) => {
                summary = format!(
                    "{summary} (k extended to {} where the smaller k collapsed although the curves rise)",
                    pc.extend
                )
            }
            Some(false) => {
                let cut = steps.iter().rev().find(|s| s.moves_left == pc.extend);
                let reached = cut.map_or(String::new(), |s| format!(": depth {}, {}", s.depth, s.eval.display()));
                summary = format!(
                    "{summary} (the search at the extended k = {} was cut short{reached}, before any gain of \
                     material or table value that could overrule the collapse)",
                    pc.extend
                )
            }
            None => {}
        }
        // Only the side ahead's own choice can be undone: a defender's
        // alternative to its best reply is never better for the side ahead.
        if outcome == ProbeOutcome::Collapses && !changes.is_empty() && pos.side_to_move() == side {
            // The engine's own line went through irreversible changes into
            // the draw; another first move might still keep the edge.
            if let Some(other) = self.other_first_moves(pos, &steps, config, &judge, progress)? {
                outcome = ProbeOutcome::Inconclusive;
                table = None;
                summary = format!("{summary}; but {other}");
            }
        }
        Ok(Some(ProgressTest { side: Side::from(side), steps, outcome, summary, tablebase: table }))
    }

    /// Whether the tables value the position after the first irreversible move of `pv` (UCI)
    /// from `here`: the next stage then ends with their exact value, whatever a short search
    /// made of the change.
    fn tables_value_change(&self, here: &Position, pv: &[String]) -> bool {
        let (_, change) = follow_to_change(here, pv);
        change.is_some_and(|(_, next)| self.tablebase.and_then(|tb| lookup(tb, &next, &[])).is_some())
    }

    /// One search of the progress test: `here` with `k` moves left before the
    /// fifty-move draw, judged for `side`; the step and the PV (UCI).
    fn probe_step(
        &mut self,
        here: &Position,
        stage: u32,
        k: u32,
        side: Color,
        pc: &ProbeConfig,
        progress: &mut dyn FnMut(Stage),
    ) -> Result<Option<(ProbeStep, Vec<String>)>, FortressError> {
        progress(Stage::Probe { stage, moves_left: k });
        // The extended `k` (beyond the plain ones) gets a quarter of the limit.
        let limit = if pc.moves.last().is_some_and(|&m| k > m) { self.limit / 4 } else { self.limit };
        let fen = with_halfmove_clock(here, clock_for(k));
        let Some((depth, eval, pv)) = self.search_line(&fen, 2 * k + pc.extra_depth, &[], limit)? else {
            return Ok(None);
        };
        let (sans, change) = follow_to_change(here, &pv);
        let step = ProbeStep {
            stage,
            moves_left: k,
            depth,
            eval,
            advantage: eval.pawns_for(side),
            collapsed: collapsed(eval, side, pc.draw_level),
            pv: sans,
            change: change.as_ref().map(|c| c.0.clone()),
        };
        Ok(Some((step, pv)))
    }

    /// Follows the progress test's stages from `start` (stage `first`; the
    /// first stage searches every `k`, later ones the largest): while the
    /// edge survives a stage, the line's first irreversible move is played
    /// and the test repeated from there. `line` holds the moves already
    /// played from the analysed position (for the tables).
    ///
    /// A plain pawn push (no capture, no promotion) gets a stage of its own
    /// beyond `stages`, up to `pushes` of them (`pushed` were granted
    /// already): such a push only postpones the draw unless the line goes on
    /// to a capture or promotion, and a line that spends free pawn moves one
    /// by one must not run out of stages before the collapse shows.
    #[allow(clippy::too_many_arguments)]
    fn stages(
        &mut self,
        start: &Position,
        first: u32,
        mut line: Vec<String>,
        mut pushed: u32,
        judge: &Judge,
        pc: &ProbeConfig,
        progress: &mut dyn FnMut(Stage),
    ) -> Result<Stages, FortressError> {
        let mut steps: Vec<ProbeStep> = Vec::new();
        let mut changes: Vec<String> = Vec::new();
        let mut here = start.clone();
        let mut outcome;
        let mut table: Option<TableValue> = None;
        // Whether the extended `k` was tried, and whether its search finished.
        let mut extended: Option<bool> = None;
        let largest = pc.moves.last().copied().unwrap_or(1);
        let mut stage = first;
        loop {
            let ks: Vec<u32> = if stage == 1 { pc.moves.clone() } else { vec![largest] };
            let mut stage_steps = Vec::new();
            let mut last_pv = Vec::new();
            for &k in &ks {
                if let Some((step, pv)) = self.probe_step(&here, stage, k, judge.side, pc, progress)? {
                    stage_steps.push(step);
                    last_pv = pv;
                }
            }
            outcome = judge_stage(&stage_steps, judge.unconstrained, pc.draw_level);
            // A slow win: the curves rise, but the next capture or pawn move
            // that keeps the edge lies beyond the largest `k`. One search at
            // the extended `k` tells it from a fortress, whose score still
            // collapses there. That search is deep (2k + extra plies) and,
            // in a locked position, can take long: it gets a quarter of the
            // search limit. A search that reached its depth (and so saw the
            // fifty-move draw in every line, reduced ones too) may overrule
            // the collapse. So may one the limit stopped beyond the draw's
            // 2k plies whose line wins material for the side ahead (a
            // capture or promotion of its own), or whose first capture or
            // pawn move leads where the tables give the exact value (the
            // Lucena's rook trade): what shallow reductions get wrong is
            // the defender accepting a sacrifice it could decline, not the
            // side ahead's gain or a table's value, and the stages that
            // follow re-test the line from there. Otherwise the collapse
            // stands.
            if outcome == ProbeOutcome::Collapses && judge.rising && pc.extend > largest {
                extended = Some(false);
                if let Some((step, pv)) = self.probe_step(&here, stage, pc.extend, judge.side, pc, progress)? {
                    let complete = step.depth >= 2 * pc.extend + pc.extra_depth
                        || (step.depth > 2 * pc.extend
                            && (gains_material(&here, &pv, judge.side) || self.tables_value_change(&here, &pv)));
                    if complete {
                        extended = Some(true);
                        outcome = judge_stage(std::slice::from_ref(&step), judge.unconstrained, pc.draw_level);
                        last_pv = pv;
                    }
                    stage_steps.push(step);
                }
            }
            // An edge that shrank without reaching the draw is followed like
            // one that held: the line's next stage shows whether it was a
            // postponement (the score then collapses) or a slower win (it
            // recovers). Stopping there left real fortresses unclear.
            let shrank = outcome == ProbeOutcome::Inconclusive
                && stage_steps.last().is_some_and(|s| !s.collapsed && s.advantage > pc.draw_level);
            steps.extend(stage_steps);
            if !(outcome == ProbeOutcome::Holds || shrank) || stage >= pc.stages + pushed {
                break;
            }
            // The edge held: play the line's first irreversible move and ask
            // again, so that a pawn push which only postpones the draw is
            // not mistaken for progress.
            let (sans, change) = follow_to_change(&here, &last_pv);
            let Some((san, next)) = change else { break };
            if !next.has_legal_moves() {
                break;
            }
            // A stage of its own (from the same small budget) for a plain
            // push and for any change the defender made (its recapture, its
            // capture of a pawn the side ahead gave up, its locking push):
            // neither is the side ahead's progress. Fig. 1 after 1.Nxb6+
            // passes seven changes (cxb6 a4 h4 gxh4 h3 gxh3 h4), six of them
            // such, before the position locks and the score collapses.
            let by_defender = next.side_to_move() == judge.side;
            if (is_plain_push(&san) || by_defender) && pushed < pc.pushes {
                pushed += 1;
            }
            // The side ahead promoted: its edge grew by a piece, which is
            // progress, not a postponement (following on, the new queen's
            // slow win over a remaining pawn would look like a collapse).
            let promoted = san.contains('=') && next.side_to_move() != judge.side;
            changes.push(san);
            line.extend(sans);
            // Few enough men for the tables: their value ends the test.
            if let Some(tv) = self.tablebase.and_then(|tb| lookup(tb, &next, &line)) {
                outcome = if tv.winner == Some(Side::from(judge.side)) {
                    ProbeOutcome::Holds
                } else {
                    ProbeOutcome::Collapses
                };
                table = Some(tv);
                break;
            }
            if promoted || !applicable(&next) {
                // The side ahead promoted, or the change left no pawns (the
                // last pawn taken) with the edge kept: progress, and beyond
                // what the test can judge (wins with a new queen or without
                // pawns take longer than any `k`).
                break;
            }
            here = next;
            stage += 1;
        }
        Ok(Stages { steps, changes, outcome, table, extended })
    }

    /// After a collapse reached through the engine's own line, searches the
    /// root once more without that line's first move (largest `k`): the
    /// alternative in words when it keeps the edge. The alternative is held
    /// to the same standard as the engine's line: when it keeps the edge
    /// only through an irreversible move, its later stages are followed, and
    /// an alternative that collapses there (another pawn push that only
    /// postpones the draw) is no alternative.
    fn other_first_moves(
        &mut self,
        pos: &Position,
        steps: &[ProbeStep],
        config: &Config,
        judge: &Judge,
        progress: &mut dyn FnMut(Stage),
    ) -> Result<Option<String>, FortressError> {
        let pc = &config.probe;
        let Some(first) = steps.iter().rev().find(|s| s.stage == 1).and_then(|s| s.pv.first()) else {
            return Ok(None);
        };
        let others: Vec<String> =
            pos.legal_moves().iter().filter(|&&m| pos.san(m) != *first).map(|&m| pos.to_uci(m)).collect();
        let Some(&k) = pc.moves.last() else { return Ok(None) };
        if others.is_empty() {
            return Ok(None);
        }
        progress(Stage::Probe { stage: 1, moves_left: k });
        let fen = with_halfmove_clock(pos, clock_for(k));
        let Some((_, eval, pv)) = self.search_line(&fen, 2 * k + pc.extra_depth, &others, self.limit)? else {
            return Ok(None);
        };
        let adv = eval.pawns_for(judge.side);
        if !(adv > pc.draw_level && adv >= (0.5 * judge.unconstrained).min(1.5)) {
            return Ok(None);
        }
        let (sans, change) = follow_to_change(pos, &pv);
        let mv = sans.first().cloned().unwrap_or_default();
        let pushed = u32::from(
            change.as_ref().is_some_and(|(san, next)| is_plain_push(san) || next.side_to_move() == judge.side)
                && pc.pushes > 0,
        );
        // Where the alternative's line shows no irreversible move (a PV cut
        // short), it is followed from where the line ends: from there, too,
        // the side ahead must force a change within `k` moves.
        let next = match change {
            Some((_, next)) => Some(next),
            None if !sans.is_empty() => Some(walk_line(pos, &pv).0),
            None => None,
        };
        if let Some(next) = next.filter(Position::has_legal_moves) {
            let collapses = match self.tablebase.and_then(|tb| lookup(tb, &next, &sans)) {
                Some(tv) => tv.winner != Some(Side::from(judge.side)),
                None if applicable(&next) && pc.stages > 1 => {
                    self.stages(&next, 2, sans.clone(), pushed, judge, pc, progress)?.outcome == ProbeOutcome::Collapses
                }
                None => false,
            };
            if collapses {
                return Ok(None);
            }
        }
        Ok(Some(format!(
            "without {first} the side ahead keeps its edge ({}) with {mv} (k = {k}): {first} leads into the fortress",
            eval.display()
        )))
    }

    /// Searches every legal move (one position per move, so it works with
    /// any UCI engine) and keeps those whose curve rises consistently, and
    /// `forced` (SAN), the move that starts the progress test's held line,
    /// whatever its curve: it is ranked first, since the test's evidence does
    /// not depend on the evaluation's level.
    fn breakthroughs(
        &mut self,
        pos: &Position,
        config: &Config,
        ahead: Color,
        top: &[Curve],
        forced: Option<&str>,
        progress: &mut dyn FnMut(Stage),
    ) -> Result<Vec<Breakthrough>, FortressError> {
        let t = &config.thresholds;
        let fen = pos.fen();
        let moves: Vec<_> = pos.legal_moves().iter().copied().collect();
        let best_final = top.iter().filter_map(|c| c.last()).map(|p| p.eval.pawns_for(ahead)).fold(f64::MIN, f64::max);
        let mut found = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            progress(Stage::Breakthrough { index: i + 1, total: moves.len() });
            let uci = pos.to_uci(m);
            let child = pos.play(m);
            if !child.has_legal_moves() {
                continue; // mate or stalemate: no curve to judge
            }
            let table = self.search(
                &fen,
                std::slice::from_ref(&uci),
                child.side_to_move(),
                config.max_depth.saturating_sub(1).max(1),
                1,
                &mut |_| {},
            )?;
            let points = table.principal(config.min_depth, 1);
            let by_progress_test = forced == Some(pos.san(m).as_str());
            if by_progress_test || rises(&points, ahead, t.window, t.rise, t.tolerance) {
                let last = points.last().map_or(f64::MIN, |p| p.eval.pawns_for(ahead));
                found.push(Breakthrough {
                    curve: Curve { san: pos.san(m), uci, evals_by_depth: points },
                    overtakes: last > best_final + t.tolerance,
                    replies: Vec::new(),
                    replies_rise: None,
                    by_progress_test,
                });
            }
        }
        let value = |b: &Breakthrough| b.curve.last().map_or(f64::MIN, |p| p.eval.pawns_for(ahead));
        found.sort_by(|a, b| b.by_progress_test.cmp(&a.by_progress_test).then(value(b).total_cmp(&value(a))));
        for b in found.iter_mut().take(config.candidates_checked as usize) {
            progress(Stage::Replies { san: b.curve.san.clone() });
            let Ok(m) = pos.parse_uci(&b.curve.uci) else { continue };
            let child = pos.play(m);
            let k = config.replies.max(1).min(child.legal_moves().len() as u32);
            let table = self.search(
                &fen,
                std::slice::from_ref(&b.curve.uci),
                child.side_to_move(),
                config.max_depth.saturating_sub(1).max(1),
                k,
                &mut |_| {},
            )?;
            let reply_moves = table.final_moves();
            b.replies = table.curves_for(&reply_moves, config.min_depth, 1, |r| {
                child.parse_uci(r).map(|rm| child.san(rm)).unwrap_or_else(|_| r.to_owned())
            });
            b.replies_rise = Some(
                !b.replies.is_empty()
                    && b.replies.iter().all(|c| rises(&c.evals_by_depth, ahead, t.window, t.rise, t.tolerance)),
            );
        }
        Ok(found)
    }

    /// Judges the position after each top move, as Guid & Bratko 2012, §4, suggest for
    /// avoiding a fortress (Fig. 1: 1.Nxb6+? walks into one). `lines` holds the
    /// root search's principal variation (UCI) for each of `top`.
    ///
    /// A move judged a fortress entry is also looked for further down the
    /// other moves' lines: a move whose own line plays it a move later (with
    /// Stockfish, 1.h4 gxh4 2.Nxb6+ in Fig. 1) is judged by the position
    /// that line reaches after it, so that the alternative proposed is not
    /// the same fortress one move later.
    fn avoidance(
        &mut self,
        pos: &Position,
        config: &Config,
        top: &[Curve],
        lines: &[Vec<String>],
        progress: &mut dyn FnMut(Stage),
    ) -> Result<Avoidance, FortressError> {
        let fen = pos.fen();
        let mut judged = Vec::new();
        for (i, c) in top.iter().enumerate() {
            progress(Stage::Avoid { index: i + 1, total: top.len() });
            let Ok(m) = pos.parse_uci(&c.uci) else { continue };
            let child = pos.play(m);
            let Some(last) = c.last() else { continue };
            let (verdict, reason, test) = self.judge_after(
                &fen,
                std::slice::from_ref(&c.uci),
                std::slice::from_ref(&c.san),
                &child,
                config,
                progress,
            )?;
            judged.push(MoveJudgement {
                san: c.san.clone(),
                uci: c.uci.clone(),
                eval: last.eval,
                verdict,
                reason,
                progress_test: test,
            });
        }
        let entries: Vec<String> =
            judged.iter().filter(|j| j.verdict == Verdict::Fortress).map(|j| j.uci.clone()).collect();
        if !entries.is_empty() {
            for (j, line) in judged.iter_mut().zip(lines) {
                if j.verdict == Verdict::Fortress {
                    continue;
                }
                // The side to move's later moves of the line (plies 2, 4, ...):
                // the first that is a judged fortress entry.
                let Some(at) = (2..line.len()).step_by(2).find(|&i| entries.contains(&line[i])) else { continue };
                let prefix = &line[..=at];
                let (here, sans) = walk_line(pos, prefix);
                if sans.len() != prefix.len() || !here.has_legal_moves() {
                    continue;
                }
                let (v, reason, test) = self.judge_after(&fen, prefix, &sans, &here, config, progress)?;
                if v == Verdict::Fortress {
                    j.verdict = v;
                    j.reason = format!("its line {} enters the fortress: {reason}", sans.join(" "));
                    j.progress_test = test;
                }
            }
        }
        if !entries.is_empty() {
            self.defender_steers_in(pos, config, &entries, &mut judged, progress)?;
        }
        let best_is_fortress = judged.first().is_some_and(|j| j.verdict == Verdict::Fortress);
        // Prefer a move judged progress; failing that, the best-ranked move
        // that at least does not walk into a fortress or a dead draw.
        let alternative = if best_is_fortress {
            judged
                .iter()
                .find(|j| j.verdict == Verdict::Progress)
                .or_else(|| judged.iter().skip(1).find(|j| j.verdict == Verdict::Unclear))
                .cloned()
        } else {
            None
        };
        Ok(Avoidance { judged, best_is_fortress, alternative })
    }

    /// The defender's captures after each move not yet flagged: a move whose
    /// own line stays clear of a judged fortress entry may still let the
    /// defender steer into it by taking what was offered. In Fig. 1 Bastion's
    /// line after 1.h4 is 1...Qa7 2.hxg5, but after 1...gxh4 its best move is
    /// 2.Nxb6+, the capture already judged a fortress entry. So after each
    /// defender capture (at most [`MAX_DEFENDER_CAPTURES`], those on the
    /// moved piece's square first) the side ahead's line is searched; when
    /// that line plays an entry within its first two moves, the position
    /// after the entry is judged, and a fortress there flags the move.
    /// The defender's captures are the replies tried because a fortress is
    /// usually built by an irreversible change the defender chooses (the
    /// recapture, the pawn taken to lock a file), and they are few.
    fn defender_steers_in(
        &mut self,
        pos: &Position,
        config: &Config,
        entries: &[String],
        judged: &mut [MoveJudgement],
        progress: &mut dyn FnMut(Stage),
    ) -> Result<(), FortressError> {
        let fen = pos.fen();
        for j in judged.iter_mut().filter(|j| j.verdict != Verdict::Fortress) {
            let Ok(m) = pos.parse_uci(&j.uci) else { continue };
            let child = pos.play(m);
            for r in defender_captures(&child, m.to()) {
                let after = child.play(r);
                if !after.has_legal_moves() {
                    continue;
                }
                let depth = config.max_depth.saturating_sub(2).max(1);
                let Some((_, _, pv)) = self.search_line(&after.fen(), depth, &[], self.limit / 4)? else {
                    continue;
                };
                let Some(at) = (0..pv.len().min(3)).step_by(2).find(|&i| entries.contains(&pv[i])) else {
                    continue;
                };
                let prefix: Vec<String> =
                    [j.uci.clone(), child.to_uci(r)].into_iter().chain(pv[..=at].iter().cloned()).collect();
                let (here, sans) = walk_line(pos, &prefix);
                if sans.len() != prefix.len() || !here.has_legal_moves() {
                    continue;
                }
                let (v, reason, test) = self.judge_after(&fen, &prefix, &sans, &here, config, progress)?;
                if v == Verdict::Fortress {
                    j.verdict = v;
                    j.reason = format!(
                        "after the defender's capture {}, the line {} enters the fortress: {reason}",
                        sans[1],
                        sans.join(" ")
                    );
                    j.progress_test = test;
                    break;
                }
            }
        }
        Ok(())
    }

    /// Judges `child`, the position after `moves` (UCI; `sans` in SAN) from
    /// `fen`: by the tables where they cover it, else by its curves at depth
    /// D−1 and its progress test.
    fn judge_after(
        &mut self,
        fen: &str,
        moves: &[String],
        sans: &[String],
        child: &Position,
        config: &Config,
        progress: &mut dyn FnMut(Stage),
    ) -> Result<(Verdict, String, Option<ProgressTest>), FortressError> {
        if !child.has_legal_moves() {
            let v = if child.in_check() { Verdict::Progress } else { Verdict::Unclear };
            return Ok((v, "the move ends the game".to_owned(), None));
        }
        if let Some(tv) = self.tablebase.and_then(|tb| lookup(tb, child, sans)) {
            let (v, _, reason) = verdict_of(&tv, material_balance(child), &config.thresholds);
            return Ok((v, reason, None));
        }
        let k = config.multipv.min(child.legal_moves().len() as u32);
        let offset = moves.len() as u32;
        let table = self.search(
            fen,
            moves,
            child.side_to_move(),
            config.max_depth.saturating_sub(offset).max(1),
            k,
            &mut |_| {},
        )?;
        let replies = table.final_moves();
        let curves = table.curves_for(&replies, config.min_depth, offset, |r| r.to_owned());
        let principal = table.principal(config.min_depth, offset);
        let (v, ev) = classify(&principal, &curves, material_balance(child), child.side_to_move(), &config.thresholds);
        let test = self.progress_test(child, &ev, v, config, progress)?;
        let (v, _, reason) = combine(v, &ev, test.as_ref(), &config.thresholds);
        Ok((v, reason, test))
    }
}

/// The caller's stop flag as a search callback sees it: `stop` is sent once.
struct StopWatch<'a> {
    flag: Option<&'a AtomicBool>,
    sent: bool,
}

impl StopWatch<'_> {
    /// What the callback answers for the next `info` line.
    fn poll(&mut self) -> SearchControl {
        if !self.sent && self.flag.is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.sent = true;
            return SearchControl::Stop;
        }
        SearchControl::Continue
    }
}

/// The move (SAN) that starts the progress test's line at the root, when
/// the side ahead's edge held and that first move is itself irreversible
/// (a pawn move or capture) and none of the engine's `top` moves: the move
/// the test had to find because the top moves only shuffle.
fn forcing_move(test: &ProgressTest, top: &[Curve]) -> Option<String> {
    if test.outcome != ProbeOutcome::Holds {
        return None;
    }
    let step = test.steps.iter().rev().find(|s| s.stage == 1)?;
    let first = step.pv.first()?;
    (step.change.as_ref() == Some(first) && !top.iter().any(|c| &c.san == first)).then(|| first.clone())
}

/// How many of the defender's captures [`Runner::defender_steers_in`] tries after one move.
const MAX_DEFENDER_CAPTURES: usize = 4;

/// The side to move's captures in `pos`, those on `moved` (the square the
/// last move went to) first, at most [`MAX_DEFENDER_CAPTURES`].
fn defender_captures(pos: &Position, moved: bastion_core::Square) -> Vec<bastion_core::Move> {
    let mut captures: Vec<_> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| m.is_en_passant() || pos.piece_at(m.to()).is_some_and(|p| p.color != pos.side_to_move()))
        .collect();
    captures.sort_by_key(|m| m.to() != moved);
    captures.truncate(MAX_DEFENDER_CAPTURES);
    captures
}

/// `pos` after the moves of `line` (UCI) that are legal in turn, and those moves in SAN (as
/// many as were legal).
fn walk_line(pos: &Position, line: &[String]) -> (Position, Vec<String>) {
    let mut p = pos.clone();
    let mut sans = Vec::new();
    for uci in line {
        let Ok(m) = p.parse_uci(uci) else { break };
        sans.push(p.san(m));
        p = p.play(m);
    }
    (p, sans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defenders_captures_of_the_moved_piece_come_first() {
        // Fig. 1 after 1.h4: Black can take on h4 twice (g-pawn, bishop) and on b5.
        let pos = Position::from_fen("2k5/2p5/1q1p4/pPpPp1pp/N1P1Pp1P/P4Pb1/KQ4P1/8 b - - 0 1").unwrap();
        let h4 = "h4".parse().unwrap();
        let caps: Vec<String> = defender_captures(&pos, h4).into_iter().map(|m| pos.san(m)).collect();
        assert_eq!(caps.len(), 3, "{caps:?}");
        assert!(caps[..2].contains(&"gxh4".to_owned()) && caps[..2].contains(&"Bxh4".to_owned()), "{caps:?}");
        assert_eq!(caps[2], "Qxb5");
        // Never more than the cap, and none when nothing can be taken.
        let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(defender_captures(&start, "e4".parse().unwrap()).is_empty());
    }
}
