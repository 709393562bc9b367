//! EPD test suites (`bm`, `am`, `dm`) run on any UCI engine, with time to
//! solution read from the engine's info stream.
//!
//! Each position is searched once, for the largest time limit. A position
//! counts as solved at time `t` when the engine's principal-variation move
//! became a solution at or before `t` and stayed one until the end of the
//! search (its final `bestmove` included). So one run yields the whole
//! "solved by 1 s, 2 s, 5 s, …" table. The figure for a small `t` is what a
//! search that *continued* would show at `t`; an engine given only `t` may
//! manage its time differently, which for fixed-time searches is rare.

use crate::referee::EngineConfig;
use bastion_core::epd::Epd;
use bastion_core::{Move, Score};
use bastion_uci_client::{Engine, GoParams, SearchControl};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// What a position asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Criteria {
    /// Best moves: one of them must be played.
    pub best: Vec<Move>,
    /// Moves to avoid: none of them may be played.
    pub avoid: Vec<Move>,
    /// Mate distance in moves (negative: the side to move is mated).
    pub mate: Option<i32>,
}

impl Criteria {
    /// The criteria of an EPD record; `Err` when it has none or a move is unreadable.
    pub fn from_epd(epd: &Epd) -> Result<Criteria, String> {
        let c = Criteria {
            best: epd.best_moves().map_err(|e| format!("bm: {e}"))?,
            avoid: epd.avoid_moves().map_err(|e| format!("am: {e}"))?,
            mate: epd.mate().filter(|&n| n != 0),
        };
        if c.best.is_empty() && c.avoid.is_empty() && c.mate.is_none() {
            return Err("no bm, am or dm operation".into());
        }
        Ok(c)
    }

    /// True when playing `m` with score `score` meets every criterion.
    pub fn is_solved(&self, m: Option<Move>, score: Option<Score>) -> bool {
        let Some(m) = m else { return false };
        if !self.best.is_empty() && !self.best.contains(&m) {
            return false;
        }
        if self.avoid.contains(&m) {
            return false;
        }
        match self.mate {
            Some(n) if n > 0 => matches!(score, Some(Score::Mate(k)) if k > 0 && k <= n),
            Some(n) => matches!(score, Some(Score::Mate(k)) if k < 0 && k >= n),
            None => true,
        }
    }
}

/// Settings of a suite run.
#[derive(Clone, Debug)]
pub struct SuiteConfig {
    /// The engine.
    pub engine: EngineConfig,
    /// Time limits to report, ascending; each position is searched for the largest.
    pub times: Vec<Duration>,
    /// `Threads` option, if set.
    pub threads: Option<u32>,
    /// `Hash` option in MB, if set.
    pub hash: Option<u32>,
    /// Extra time allowed past the limit before the search counts as hung.
    pub margin: Duration,
    /// Search each position for this many nodes (`go nodes`) instead of for the
    /// largest time; the time then only bounds how long we wait for `bestmove`.
    /// With one thread and a cleared hash this makes a run reproducible under any load.
    pub nodes: Option<u64>,
}

/// The outcome of one position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PositionResult {
    /// Index in the suite, from 1.
    pub index: usize,
    /// The `id`, if any.
    pub id: Option<String>,
    /// The position (EPD fields).
    pub epd: String,
    /// The criteria as text, e.g. `bm Qg6` or `dm 3`.
    pub expected: String,
    /// The engine's final move in SAN.
    pub found: Option<String>,
    /// Its final score, e.g. `+1.25` or `#3`.
    pub score: Option<String>,
    /// Deepest depth reported.
    pub depth: Option<u32>,
    /// Solved at the end of the search.
    pub solved: bool,
    /// Seconds from `go` until the solution appeared for good.
    pub solve_time: Option<f64>,
    /// Why the position could not be tested (bad EPD, engine failure).
    pub error: Option<String>,
}

/// A whole suite run.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteReport {
    /// Engine name.
    pub engine: String,
    /// Positions in the suite.
    pub positions: usize,
    /// Search time per position, in seconds (with `nodes`: the longest wait allowed).
    pub limit: f64,
    /// Nodes per position, when the run was node-limited.
    pub nodes: Option<u64>,
    /// Mean of the deepest depth reported per position (positions that reported one).
    pub mean_depth: Option<f64>,
    /// Positions solved at the end of the search.
    pub solved: usize,
    /// `(seconds, solved by then)` for each reported time.
    pub table: Vec<(f64, usize)>,
    /// Every position.
    pub results: Vec<PositionResult>,
}

impl SuiteReport {
    /// The report of a run from its results in suite order: solved counts at each of the
    /// configured times and the mean depth. Used by [`run_suite`] and by runs that search
    /// the positions elsewhere (on the ranks of a cluster) and gather the results.
    pub fn from_results(
        engine: String,
        config: &SuiteConfig,
        results: Vec<PositionResult>,
    ) -> Result<SuiteReport, String> {
        let times = sorted_times(config)?;
        let limit = *times.last().ok_or("no time limit given")?;
        let solved = results.iter().filter(|r| r.solved).count();
        let table = times
            .iter()
            .map(|t| {
                let secs = t.as_secs_f64();
                (secs, results.iter().filter(|r| r.solve_time.is_some_and(|s| s <= secs + 1e-9)).count())
            })
            .collect();
        let depths: Vec<f64> = results.iter().filter_map(|r| r.depth).map(f64::from).collect();
        let mean_depth = (!depths.is_empty()).then(|| depths.iter().sum::<f64>() / depths.len() as f64);
        Ok(SuiteReport {
            engine,
            positions: results.len(),
            limit: limit.as_secs_f64(),
            nodes: config.nodes,
            mean_depth,
            solved,
            table,
            results,
        })
    }

    /// Positions that were not solved (errors included).
    pub fn failures(&self) -> impl Iterator<Item = &PositionResult> {
        self.results.iter().filter(|r| !r.solved)
    }

    /// The text report: summary, table, failures.
    pub fn to_text(&self) -> String {
        let budget = match self.nodes {
            Some(n) => format!("{n} nodes"),
            None => format!("{:.1} s", self.limit),
        };
        let mut s = format!("{}: solved {}/{} at {budget} per position", self.engine, self.solved, self.positions);
        if let Some(d) = self.mean_depth {
            s.push_str(&format!(", mean depth {d:.1}"));
        }
        s.push_str("\n\nTime (s)  Solved\n");
        for (t, n) in &self.table {
            s.push_str(&format!("{t:>8.2}  {n:>6}\n"));
        }
        let fails: Vec<_> = self.failures().collect();
        if !fails.is_empty() {
            s.push_str("\nNot solved:\n");
            for r in fails {
                let id = r.id.clone().unwrap_or_else(|| format!("#{}", r.index));
                match &r.error {
                    Some(e) => s.push_str(&format!("  {id}: error: {e}\n")),
                    None => s.push_str(&format!(
                        "  {id}: expected {}, engine played {} ({})\n",
                        r.expected,
                        r.found.as_deref().unwrap_or("nothing"),
                        r.score.as_deref().unwrap_or("no score")
                    )),
                }
            }
        }
        s
    }
}

/// The configured times, shortest first, without repeats.
fn sorted_times(config: &SuiteConfig) -> Result<Vec<std::time::Duration>, String> {
    let mut times = config.times.clone();
    times.sort();
    times.dedup();
    if times.is_empty() {
        return Err("no time limit given".into());
    }
    Ok(times)
}

fn expected_text(epd: &Epd) -> String {
    let mut parts = Vec::new();
    for op in ["bm", "am", "dm"] {
        if let Some(v) = epd.get(op) {
            parts.push(format!("{op} {}", v.join(" ")));
        }
    }
    parts.join("; ")
}

/// Runs `entries` on the engine; `on_result` sees each position as it is
/// done; `stop` is polled between positions.
pub fn run_suite(
    entries: &[Epd],
    config: &SuiteConfig,
    stop: &dyn Fn() -> bool,
    mut on_result: impl FnMut(&PositionResult),
) -> Result<SuiteReport, String> {
    let times = sorted_times(config)?;
    let limit = *times.last().ok_or("no time limit given")?;
    if limit.is_zero() {
        return Err("the time limit must be positive".into());
    }
    let mut engine: Option<Engine> = None;
    let mut name = config.engine.name.clone();
    let mut results = Vec::new();
    for (i, epd) in entries.iter().enumerate() {
        if stop() {
            break;
        }
        let mut r = PositionResult {
            index: i + 1,
            id: epd.id().map(str::to_string),
            epd: epd.position.epd(),
            expected: expected_text(epd),
            found: None,
            score: None,
            depth: None,
            solved: false,
            solve_time: None,
            error: None,
        };
        match Criteria::from_epd(epd) {
            Err(e) => r.error = Some(e),
            Ok(criteria) => {
                if engine.is_none() {
                    let mut e =
                        config.engine.start().map_err(|e| format!("cannot start {}: {e}", config.engine.command))?;
                    if let Some(n) = e.name() {
                        if config.engine.name == config.engine.command {
                            name = n.to_string();
                        }
                    }
                    let set = |e: &mut Engine, k: &str, v: u32| -> Result<(), String> {
                        if e.option(k).is_some() {
                            e.set_option(k, &v.to_string()).map_err(|x| x.to_string())?;
                        }
                        Ok(())
                    };
                    if let Some(t) = config.threads {
                        set(&mut e, "Threads", t)?;
                    }
                    if let Some(h) = config.hash {
                        set(&mut e, "Hash", h)?;
                    }
                    engine = Some(e);
                }
                let e = engine.as_mut().expect("started above");
                let budget = match config.nodes {
                    Some(n) => Budget::Nodes(n),
                    None => Budget::Time(limit),
                };
                if let Err(err) = search_position(e, epd, &criteria, budget, limit + config.margin, &mut r) {
                    r.error = Some(err);
                    engine = None; // restart for the next position
                }
            }
        }
        on_result(&r);
        results.push(r);
    }
    // An interrupted run still counts the whole suite.
    let mut report = SuiteReport::from_results(name, config, results)?;
    report.positions = entries.len();
    Ok(report)
}

/// What ends the search of one position.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Time(Duration),
    Nodes(u64),
}

fn search_position(
    engine: &mut Engine,
    epd: &Epd,
    criteria: &Criteria,
    budget: Budget,
    wait: Duration,
    r: &mut PositionResult,
) -> Result<(), String> {
    let pos = &epd.position;
    engine.new_game().and_then(|()| engine.is_ready(Duration::from_secs(30))).map_err(|e| e.to_string())?;
    engine.position(&pos.fen(), &[]).map_err(|e| e.to_string())?;
    let go = match budget {
        Budget::Time(t) => GoParams::movetime(t),
        Budget::Nodes(n) => GoParams { nodes: Some(n), ..GoParams::default() },
    };
    engine.go(&go).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut streak_since: Option<Duration> = None;
    let mut last_score = None;
    let result = engine
        .wait_bestmove(wait, |info| {
            if !matches!(info.multipv, None | Some(1)) {
                return SearchControl::Continue;
            }
            if info.score.is_some() {
                last_score = info.score;
            }
            if let Some(first) = info.pv.first() {
                let m = pos.parse_uci(first).ok();
                if criteria.is_solved(m, last_score) {
                    streak_since.get_or_insert(started.elapsed());
                } else {
                    streak_since = None;
                }
            }
            SearchControl::Continue
        })
        .map_err(|e| e.to_string())?;
    let best = result.best_move().and_then(|b| pos.parse_uci(b).ok());
    let score = result.score().or(last_score);
    r.found = best.map(|m| pos.san(m));
    r.score = score.map(|s| s.to_string());
    r.depth = result.depth();
    r.solved = criteria.is_solved(best, score);
    if r.solved {
        // No PV line at all: the solution is only known at bestmove time.
        let t = streak_since.unwrap_or(result.elapsed).min(result.elapsed);
        r.solve_time = Some(t.as_secs_f64());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criteria_cover_bm_am_dm() {
        let e = Epd::parse("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";").unwrap();
        let c = Criteria::from_epd(&e).unwrap();
        let qg6 = e.position.parse_san("Qg6").unwrap();
        let other = e.position.parse_san("Qf3").unwrap();
        assert!(c.is_solved(Some(qg6), None));
        assert!(!c.is_solved(Some(other), None));
        assert!(!c.is_solved(None, None));
        let a = Epd::parse("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - am Qf3;").unwrap();
        let c = Criteria::from_epd(&a).unwrap();
        assert!(c.is_solved(Some(qg6), None));
        assert!(!c.is_solved(Some(other), None));
        let d = Epd::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1;").unwrap();
        let c = Criteria::from_epd(&d).unwrap();
        let ra8 = d.position.parse_san("Ra8").unwrap();
        assert!(c.is_solved(Some(ra8), Some(Score::Mate(1))));
        assert!(!c.is_solved(Some(ra8), Some(Score::Cp(900))));
        assert!(!c.is_solved(Some(ra8), Some(Score::Mate(2))));
        let none = Epd::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"x\";").unwrap();
        assert!(Criteria::from_epd(&none).is_err());
    }
}
