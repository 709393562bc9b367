//! Accuracy on a labelled set: one row per position (also the line format of
//! a resume file), and the report over all rows with its text table.

use std::collections::HashSet;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::analysis::{Analysis, Config};
use crate::classify::{Basis, Thresholds, Verdict};
use crate::labels::{Label, LabelledPosition};

/// The configuration a suite runs with: the verdict is what is measured, so
/// the breakthrough search (not scored) is switched off.
pub fn suite_config(config: &Config) -> Config {
    Config { breakthrough: false, ..config.clone() }
}

/// One finished position of a suite run (also the resume-file line).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteRow {
    /// The position's id in the labelled set.
    pub id: String,
    /// Its ground truth.
    pub label: Label,
    /// The detector's verdict.
    pub verdict: Verdict,
    /// Whether the verdict matches the label.
    pub correct: bool,
    /// Final evaluation, as displayed.
    pub final_eval: String,
    /// Range of the best evaluation over the window (pawns).
    pub range: f64,
    /// Fitted rise over the window (pawns).
    pub rise: f64,
    /// Gap between the top moves (pawns).
    pub spread: f64,
    /// Depth from which the verdict no longer changed.
    pub verdict_depth: Option<u32>,
    /// Search time until then, milliseconds.
    pub verdict_ms: Option<u64>,
    /// Total analysis time, milliseconds.
    pub total_ms: u64,
    /// The evidence that decided.
    #[serde(default = "default_basis")]
    pub basis: Basis,
    /// The verdict's reason.
    pub reason: String,
}

fn default_basis() -> Basis {
    Basis::NoPattern
}

impl SuiteRow {
    /// The row of labelled position `p` analysed as `a`.
    pub fn new(p: &LabelledPosition, a: &Analysis) -> SuiteRow {
        let want = p.label.verdict();
        SuiteRow {
            id: p.id.clone(),
            label: p.label,
            verdict: a.verdict,
            correct: a.verdict == want,
            final_eval: a.evidence.final_eval.clone(),
            range: a.evidence.range,
            rise: a.evidence.rise,
            spread: a.evidence.spread,
            verdict_depth: a.verdict_depth,
            verdict_ms: a.verdict_ms,
            total_ms: a.elapsed_ms,
            basis: a.evidence.basis,
            reason: a.evidence.reason.clone(),
        }
    }
}

/// The rows of a resume file (one JSON row a line); a line cut short by an
/// interruption is skipped, so its position is simply redone.
pub fn parse_resume(text: &str) -> Vec<SuiteRow> {
    text.lines().filter_map(|l| serde_json::from_str::<SuiteRow>(l).ok()).collect()
}

/// The positions of `set` that have no row in `done` yet, in file order.
pub fn remaining<'a>(set: &'a [LabelledPosition], done: &[SuiteRow]) -> Vec<&'a LabelledPosition> {
    let done: HashSet<&str> = done.iter().map(|r| r.id.as_str()).collect();
    set.iter().filter(|p| !done.contains(p.id.as_str())).collect()
}

/// Accuracy of a suite run.
#[derive(Debug, Clone, Serialize)]
pub struct SuiteReport {
    /// Engine name.
    pub engine: String,
    /// Deepest search depth.
    pub max_depth: u32,
    /// Moves followed (MultiPV).
    pub multipv: u32,
    /// The verdict thresholds used.
    pub thresholds: Thresholds,
    /// Positions with a row.
    pub positions: usize,
    /// Rows whose verdict matches the label.
    pub correct: usize,
    /// `correct / positions`.
    pub accuracy: f64,
    /// Fortresses called fortress.
    pub fortress_called_fortress: usize,
    /// Fortresses in the rows.
    pub fortresses: usize,
    /// Progress positions called progress.
    pub progress_called_progress: usize,
    /// Progress positions in the rows.
    pub progresses: usize,
    /// Dead draws called dead draw.
    pub dead_draw_called_dead_draw: usize,
    /// Dead draws in the rows.
    pub dead_draws: usize,
    /// Fortresses called progress: the costly error.
    pub fortress_called_progress: usize,
    /// Median depth to a stable verdict over the correct rows.
    pub median_verdict_depth: Option<u32>,
    /// Median search time to a stable verdict over the correct rows, milliseconds.
    pub median_verdict_ms: Option<u64>,
    /// The rows, in the labelled set's order.
    pub rows: Vec<SuiteRow>,
}

impl SuiteReport {
    /// The report over `rows` of positions of `set` analysed by `engine` with
    /// `config`; rows of positions not in `set` are dropped, the rest put in
    /// the set's order.
    pub fn new(engine: String, config: &Config, set: &[LabelledPosition], mut rows: Vec<SuiteRow>) -> SuiteReport {
        rows.sort_by_key(|r| set.iter().position(|p| p.id == r.id).unwrap_or(usize::MAX));
        rows.retain(|r| set.iter().any(|p| p.id == r.id));
        let count = |l: Label, ok: bool| rows.iter().filter(|r| r.label == l && (!ok || r.correct)).count();
        let median = |mut v: Vec<u64>| -> Option<u64> {
            v.sort_unstable();
            v.get(v.len() / 2).copied()
        };
        let correct_rows: Vec<&SuiteRow> = rows.iter().filter(|r| r.correct).collect();
        let correct = correct_rows.len();
        SuiteReport {
            engine,
            max_depth: config.max_depth,
            multipv: config.multipv,
            thresholds: config.thresholds,
            positions: rows.len(),
            correct,
            accuracy: correct as f64 / rows.len().max(1) as f64,
            fortress_called_fortress: count(Label::Fortress, true),
            fortresses: count(Label::Fortress, false),
            progress_called_progress: count(Label::Progress, true),
            progresses: count(Label::Progress, false),
            dead_draw_called_dead_draw: count(Label::DeadDraw, true),
            dead_draws: count(Label::DeadDraw, false),
            fortress_called_progress: rows
                .iter()
                .filter(|r| r.label == Label::Fortress && r.verdict == Verdict::Progress)
                .count(),
            median_verdict_depth: median(correct_rows.iter().filter_map(|r| r.verdict_depth.map(u64::from)).collect())
                .map(|d| d as u32),
            median_verdict_ms: median(correct_rows.iter().filter_map(|r| r.verdict_ms).collect()),
            rows,
        }
    }

    /// The report as a table, one row a position, then the totals.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_text(&mut out);
        out
    }

    fn write_text(&self, out: &mut String) -> std::fmt::Result {
        writeln!(
            out,
            "{:<22} {:<9} {:<9} {:>8} {:>6} {:>6} {:>6} {:>6} {:>8} {:<14}",
            "id", "label", "verdict", "final", "range", "rise", "spread", "v.dep", "v.ms", "decided by"
        )?;
        for r in &self.rows {
            writeln!(
                out,
                "{:<22} {:<9} {:<9} {:>8} {:>6.2} {:>+6.2} {:>6.2} {:>6} {:>8} {:<14} {}",
                r.id,
                format!("{:?}", r.label).to_lowercase(),
                r.verdict.to_string(),
                r.final_eval,
                r.range,
                r.rise,
                r.spread,
                r.verdict_depth.map_or("-".into(), |d| d.to_string()),
                r.verdict_ms.map_or("-".into(), |d| d.to_string()),
                r.basis.to_string(),
                if r.correct { "" } else { "  <-- wrong" }
            )?;
        }
        writeln!(
            out,
            "\n{} of {} correct ({:.0}%): fortresses {}/{}, progress {}/{}, dead draws {}/{}; fortresses called progress: {}; engine {}, depth {}, MultiPV {}",
            self.correct,
            self.positions,
            100.0 * self.accuracy,
            self.fortress_called_fortress,
            self.fortresses,
            self.progress_called_progress,
            self.progresses,
            self.dead_draw_called_dead_draw,
            self.dead_draws,
            self.fortress_called_progress,
            self.engine,
            self.max_depth,
            self.multipv
        )?;
        if let (Some(d), Some(ms)) = (self.median_verdict_depth, self.median_verdict_ms) {
            writeln!(out, "median depth to a stable correct verdict: {d} ({ms} ms of search)")?;
        }
        Ok(())
    }
}
