//! Solving EPD mate suites as a benchmark: one row per position, summaries
//! grouped by mate length.

use crate::epd::MateEntry;
use crate::notation::san_line;
use crate::search::Solver;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The result for one suite position (deserialised where it was solved elsewhere: on another
/// rank of a cluster).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Line in the suite file.
    pub line: usize,
    /// The `id` operation.
    pub id: Option<String>,
    /// The position.
    pub fen: String,
    /// The listed mate length (negative: the side to move is mated).
    pub expected: i32,
    /// The proved length, signed like `expected`; None if not proved.
    pub found: Option<i32>,
    /// Proved within the listed length and the time limit.
    pub solved: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Positions searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: f64,
    /// Main line (for positive entries).
    pub pv: String,
    /// Anything unusual: time out, shorter than listed, no mate.
    pub note: String,
}

/// Summary of the rows with one mate length.
#[derive(Clone, Debug, Serialize)]
pub struct Group {
    /// The listed mate length.
    pub mate: i32,
    /// Rows.
    pub positions: usize,
    /// Rows solved.
    pub solved: usize,
    /// Median seconds (solved or not: unsolved count as the time spent).
    pub median_s: f64,
    /// Largest seconds.
    pub max_s: f64,
    /// Total nodes over total seconds.
    pub nps: f64,
}

/// Proves one entry: for `#N` the shortest mate by iterative deepening up to
/// N (so "solved" also proves nothing shorter exists), for `#-N` that every
/// defence loses within N.
pub fn run_entry(solver: &mut Solver<'_>, e: &MateEntry, limit: Duration) -> Row {
    run_entry_with(solver, e, limit, true)
}

/// [`run_entry`]; with `shortest` false it only proves a mate within N (no
/// iterative deepening, so nothing is said about shorter mates), which is
/// what `go mate N` in a UCI engine answers.
pub fn run_entry_with(solver: &mut Solver<'_>, e: &MateEntry, limit: Duration, shortest: bool) -> Row {
    solver.clear();
    solver.reset_nodes();
    solver.set_deadline(Some(Instant::now() + limit));
    let start = Instant::now();
    let n = e.mate.unsigned_abs().min(60) as u8;
    let result = match (e.mate > 0, shortest) {
        (true, true) => solver.shortest_mate(&e.position, n),
        (false, true) => solver.shortest_mated(&e.position, n),
        (true, false) => solver.mate_within_staged(&e.position, n).map(|w| w.then_some(n)),
        (false, false) => solver.mated_within(&e.position, n).map(|w| w.then_some(n)),
    };
    let seconds = start.elapsed().as_secs_f64();
    let nodes = solver.nodes();
    let (found, note, pv) = match result {
        Ok(Some(k)) => {
            let pv = if e.mate > 0 {
                solver.set_deadline(None);
                solver.main_line(&e.position, k).map(|l| san_line(&e.position, &l)).unwrap_or_default()
            } else {
                String::new()
            };
            let note = if k < n {
                "shorter than listed"
            } else if !shortest {
                "within"
            } else {
                ""
            };
            (Some(e.mate.signum() * k as i32), note.to_string(), pv)
        }
        Ok(None) => (None, "no mate within the listed length".to_string(), String::new()),
        Err(a) => (None, a.to_string(), String::new()),
    };
    Row {
        line: e.line,
        id: e.id.clone(),
        fen: e.position.fen(),
        expected: e.mate,
        solved: found.is_some(),
        found,
        seconds,
        nodes,
        nps: nodes as f64 / seconds.max(1e-9),
        pv,
        note,
    }
}

/// Groups rows by listed mate length.
pub fn group(rows: &[Row]) -> Vec<Group> {
    let mut by: BTreeMap<i32, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by.entry(r.expected).or_default().push(r);
    }
    by.into_iter()
        .map(|(mate, rs)| {
            let mut t: Vec<f64> = rs.iter().map(|r| r.seconds).collect();
            t.sort_by(f64::total_cmp);
            let nodes: u64 = rs.iter().map(|r| r.nodes).sum();
            let secs: f64 = t.iter().sum();
            let mid = t.len() / 2;
            Group {
                mate,
                positions: rs.len(),
                solved: rs.iter().filter(|r| r.solved).count(),
                median_s: if t.len() % 2 == 1 { t[mid] } else { (t[mid - 1] + t[mid]) / 2.0 },
                max_s: t.last().copied().unwrap_or(0.0),
                nps: nodes as f64 / secs.max(1e-9),
            }
        })
        .collect()
}
