//! Driving the engine: the iterative-deepening MultiPV analysis, the
//! breakthrough search (Guid & Bratko 2012, §4, Figs. 5–6) and fortress avoidance.

use std::time::{Duration, Instant};

use bastion_core::{Color, Position};
use bastion_uci_client::{Engine, GoParams, SearchControl, UciError};
use serde::{Deserialize, Serialize};

use crate::classify::{classify, material_balance, rises, Evidence, Side, Thresholds, Verdict};
use crate::curve::{Curve, DepthTable, DepthTime, Point};
use crate::error::FortressError;
use crate::probe::{
    applicable, clock_for, collapsed, combine, follow_to_change, judge_stage, summarise, with_halfmove_clock,
    ProbeConfig, ProbeOutcome, ProbeStep, ProgressTest,
};
use crate::score::Eval;

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

/// Analyses `fen` with `engine`; see [`analyse_with_progress`].
pub fn analyse(fen: &str, config: &Config, engine: &mut Engine) -> Result<Analysis, FortressError> {
    analyse_with_progress(fen, config, engine, &mut |_| {})
}

/// Analyses `fen`: MultiPV-K iterative deepening to `max_depth`, the verdict
/// with its evidence, and when it is a fortress a search of every legal move
/// for a breakthrough; `progress` hears about each stage.
pub fn analyse_with_progress(
    fen: &str,
    config: &Config,
    engine: &mut Engine,
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
    let mut runner = Runner { engine, limit: Duration::from_millis(config.search_limit_ms), truncated: 0 };
    let k = config.multipv.min(legal.len() as u32);
    let table = runner
        .search(&fen, &[], pos.side_to_move(), config.max_depth, k, &mut |d| progress(Stage::Main { depth: d }))?;
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
    let progress_test = runner.progress_test(&pos, &evidence, config, progress)?;
    let (verdict, basis, reason) = combine(curve_verdict, &evidence, progress_test.as_ref(), t);
    evidence.basis = basis;
    evidence.reason = reason;

    let ahead: Color = evidence.ahead.map_or(pos.side_to_move(), Color::from);
    let mut breakthroughs = Vec::new();
    // The paper's breakthrough search (§4) is for positions that look like
    // fortresses: flat curves, whatever the progress test then says.
    let looks_flat = curve_verdict == Verdict::Fortress
        || (evidence.ahead.is_some() && evidence.range <= t.tolerance && evidence.mate.is_none());
    let breakthrough_searched = config.breakthrough && (verdict == Verdict::Fortress || looks_flat);
    if breakthrough_searched {
        breakthroughs = runner.breakthroughs(&pos, config, ahead, &curves, progress)?;
        if verdict == Verdict::Progress {
            if let Some(b) = breakthroughs.iter().find(|b| b.overtakes && b.replies_rise != Some(false)) {
                evidence.reason = format!("{}; breakthrough: {}", evidence.reason, b.curve.san);
            }
        }
    }
    let avoidance = if config.avoid { Some(runner.avoidance(&pos, config, &curves, progress)?) } else { None };
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

/// The engine with the per-search settings.
struct Runner<'a> {
    engine: &'a mut Engine,
    limit: Duration,
    truncated: u32,
}

impl Runner<'_> {
    /// One fresh search of `fen` + `moves` to `depth` with MultiPV `k`,
    /// collecting every depth's lines; `on_depth` hears each new depth.
    fn search(
        &mut self,
        fen: &str,
        moves: &[String],
        side_to_move: Color,
        depth: u32,
        k: u32,
        on_depth: &mut dyn FnMut(u32),
    ) -> Result<DepthTable, FortressError> {
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
        let result = self.engine.wait_bestmove(self.limit, |info| {
            table.ingest(info, started.elapsed().as_millis() as u64);
            if let Some(d) = info.depth {
                if d > last_depth && info.score.is_some() {
                    last_depth = d;
                    on_depth(d);
                }
            }
            SearchControl::Continue
        });
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

    /// One single-line search of `fen` to `depth`: the deepest exact score
    /// and its principal variation (UCI).
    fn search_line(
        &mut self,
        fen: &str,
        depth: u32,
        searchmoves: &[String],
    ) -> Result<Option<(Eval, Vec<String>)>, FortressError> {
        let side = Position::from_fen(fen).map(|p| p.side_to_move()).unwrap_or(Color::White);
        self.engine.new_game()?;
        self.engine.set_option("MultiPV", "1")?;
        self.engine.is_ready(Duration::from_secs(30))?;
        self.engine.position(fen, &[])?;
        self.engine.go(&GoParams { searchmoves: searchmoves.to_vec(), ..GoParams::depth(depth.max(1)) })?;
        let mut best: Option<(u32, Eval, Vec<String>)> = None;
        let result = self.engine.wait_bestmove(self.limit, |info| {
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
            SearchControl::Continue
        });
        match result {
            Ok(_) => {}
            Err(UciError::Timeout { .. }) => self.truncated += 1,
            Err(e) => return Err(e.into()),
        }
        Ok(best.map(|(_, e, pv)| (e, pv)))
    }

    /// The progress test (see [`crate::probe`]) for the side `ev` names as
    /// ahead (or the side to move when nobody is), when it applies.
    fn progress_test(
        &mut self,
        pos: &Position,
        ev: &Evidence,
        config: &Config,
        progress: &mut dyn FnMut(Stage),
    ) -> Result<Option<ProgressTest>, FortressError> {
        let pc = &config.probe;
        if !pc.enabled || !applicable(pos) || ev.mate.is_some() || ev.final_depth == 0 {
            return Ok(None);
        }
        let side: Color = ev.ahead.map_or(pos.side_to_move(), Color::from);
        let unconstrained = ev.advantage;
        let mut steps: Vec<ProbeStep> = Vec::new();
        let mut changes: Vec<String> = Vec::new();
        let mut here = pos.clone();
        let mut outcome = ProbeOutcome::Inconclusive;
        for stage in 1..=pc.stages {
            let ks: Vec<u32> =
                if stage == 1 { pc.moves.clone() } else { pc.moves.last().copied().into_iter().collect() };
            let mut stage_steps = Vec::new();
            let mut last_pv = Vec::new();
            for &k in &ks {
                progress(Stage::Probe { stage, moves_left: k });
                let fen = with_halfmove_clock(&here, clock_for(k));
                let depth = 2 * k + pc.extra_depth;
                let Some((eval, pv)) = self.search_line(&fen, depth, &[])? else { continue };
                let (sans, change) = follow_to_change(&here, &pv);
                stage_steps.push(ProbeStep {
                    stage,
                    moves_left: k,
                    depth,
                    eval,
                    advantage: eval.pawns_for(side),
                    collapsed: collapsed(eval, side, pc.draw_level),
                    pv: sans,
                    change: change.as_ref().map(|c| c.0.clone()),
                });
                last_pv = pv;
            }
            outcome = judge_stage(&stage_steps, unconstrained, pc.draw_level);
            steps.extend(stage_steps);
            if outcome != ProbeOutcome::Holds || stage == pc.stages {
                break;
            }
            // The edge held: play the line's first irreversible move and ask
            // again, so that a pawn push which only postpones the draw is
            // not mistaken for progress.
            let (_, change) = follow_to_change(&here, &last_pv);
            let Some((san, next)) = change else { break };
            if !next.has_legal_moves() {
                break;
            }
            changes.push(san);
            if !applicable(&next) {
                // The change left no pawns (a promotion or the last pawn
                // taken) with the edge kept: progress, and beyond what the
                // test can judge (pawnless wins take longer than any `k`).
                break;
            }
            here = next;
        }
        let mut summary = summarise(outcome, &steps, &changes);
        // Only the side ahead's own choice can be undone: a defender's
        // alternative to its best reply is never better for the side ahead.
        if outcome == ProbeOutcome::Collapses && !changes.is_empty() && pos.side_to_move() == side {
            // The engine's own line went through irreversible changes into
            // the draw; another first move might still keep the edge.
            if let Some(other) = self.other_first_moves(pos, &steps, config, side, unconstrained, progress)? {
                outcome = ProbeOutcome::Inconclusive;
                summary = format!("{summary}; but {other}");
            }
        }
        Ok(Some(ProgressTest { side: Side::from(side), steps, outcome, summary }))
    }

    /// After a collapse reached through the engine's own line, searches the
    /// root once more without that line's first move (largest `k`): the
    /// alternative in words when it keeps the edge.
    fn other_first_moves(
        &mut self,
        pos: &Position,
        steps: &[ProbeStep],
        config: &Config,
        side: Color,
        unconstrained: f64,
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
        let Some((eval, pv)) = self.search_line(&fen, 2 * k + pc.extra_depth, &others)? else { return Ok(None) };
        let adv = eval.pawns_for(side);
        if adv > pc.draw_level && adv >= (0.5 * unconstrained).min(1.5) {
            let (sans, _) = follow_to_change(pos, &pv);
            let mv = sans.first().cloned().unwrap_or_default();
            return Ok(Some(format!(
                "without {first} the side ahead keeps its edge ({}) with {mv} (k = {k}): {first} leads into the fortress",
                eval.display()
            )));
        }
        Ok(None)
    }

    /// Searches every legal move (one position per move, so it works with
    /// any UCI engine) and keeps those whose curve rises consistently.
    fn breakthroughs(
        &mut self,
        pos: &Position,
        config: &Config,
        ahead: Color,
        top: &[Curve],
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
            if rises(&points, ahead, t.window, t.rise, t.tolerance) {
                let last = points.last().map_or(f64::MIN, |p| p.eval.pawns_for(ahead));
                found.push(Breakthrough {
                    curve: Curve { san: pos.san(m), uci, evals_by_depth: points },
                    overtakes: last > best_final + t.tolerance,
                    replies: Vec::new(),
                    replies_rise: None,
                });
            }
        }
        let value = |b: &Breakthrough| b.curve.last().map_or(f64::MIN, |p| p.eval.pawns_for(ahead));
        found.sort_by(|a, b| value(b).total_cmp(&value(a)));
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
    /// avoiding a fortress (Fig. 1: 1.Nxb6?? walks into one).
    fn avoidance(
        &mut self,
        pos: &Position,
        config: &Config,
        top: &[Curve],
        progress: &mut dyn FnMut(Stage),
    ) -> Result<Avoidance, FortressError> {
        let fen = pos.fen();
        let mut judged = Vec::new();
        for (i, c) in top.iter().enumerate() {
            progress(Stage::Avoid { index: i + 1, total: top.len() });
            let Ok(m) = pos.parse_uci(&c.uci) else { continue };
            let child = pos.play(m);
            let Some(last) = c.last() else { continue };
            let (verdict, reason, test) = if !child.has_legal_moves() {
                let v = if child.in_check() { Verdict::Progress } else { Verdict::Unclear };
                (v, "the move ends the game".to_owned(), None)
            } else {
                let k = config.multipv.min(child.legal_moves().len() as u32);
                let table = self.search(
                    &fen,
                    std::slice::from_ref(&c.uci),
                    child.side_to_move(),
                    config.max_depth.saturating_sub(1).max(1),
                    k,
                    &mut |_| {},
                )?;
                let replies = table.final_moves();
                let curves = table.curves_for(&replies, config.min_depth, 1, |r| r.to_owned());
                let principal = table.principal(config.min_depth, 1);
                let (v, ev) =
                    classify(&principal, &curves, material_balance(&child), child.side_to_move(), &config.thresholds);
                let test = self.progress_test(&child, &ev, config, progress)?;
                let (v, _, reason) = combine(v, &ev, test.as_ref(), &config.thresholds);
                (v, reason, test)
            };
            judged.push(MoveJudgement {
                san: c.san.clone(),
                uci: c.uci.clone(),
                eval: last.eval,
                verdict,
                reason,
                progress_test: test,
            });
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
}
