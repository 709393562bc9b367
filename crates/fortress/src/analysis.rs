//! Driving the engine: the iterative-deepening MultiPV analysis, the
//! breakthrough search (Guid & Bratko 2012, §4, Figs. 5–6) and fortress avoidance.

use std::time::{Duration, Instant};

use bastion_core::{Color, Position};
use bastion_uci_client::{Engine, GoParams, SearchControl, UciError};
use serde::{Deserialize, Serialize};

use crate::classify::{classify, material_balance, rises, Evidence, Thresholds, Verdict};
use crate::curve::{Curve, DepthTable, DepthTime, Point};
use crate::error::FortressError;
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
    /// Its evidence.
    pub evidence: Evidence,
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
    let (verdict, evidence) = classify(&principal, &curves, material, pos.side_to_move(), t);
    let times = table.times();
    let verdict_depth = stable_from(&principal, &curves, material, pos.side_to_move(), t, verdict);
    let verdict_ms = verdict_depth.and_then(|d| times.iter().find(|x| x.depth == d).map(|x| x.ms));

    let ahead: Color = evidence.ahead.map_or(pos.side_to_move(), Color::from);
    let mut breakthroughs = Vec::new();
    let breakthrough_searched = config.breakthrough && verdict == Verdict::Fortress;
    if breakthrough_searched {
        breakthroughs = runner.breakthroughs(&pos, config, ahead, &curves, progress)?;
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
            let (verdict, reason) = if !child.has_legal_moves() {
                let v = if child.in_check() { Verdict::Progress } else { Verdict::Unclear };
                (v, "the move ends the game".to_owned())
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
                (v, ev.reason)
            };
            judged.push(MoveJudgement { san: c.san.clone(), uci: c.uci.clone(), eval: last.eval, verdict, reason });
        }
        let best_is_fortress = judged.first().is_some_and(|j| j.verdict == Verdict::Fortress);
        let alternative =
            if best_is_fortress { judged.iter().find(|j| j.verdict == Verdict::Progress).cloned() } else { None };
        Ok(Avoidance { judged, best_is_fortress, alternative })
    }
}
