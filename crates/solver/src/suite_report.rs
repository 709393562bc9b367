//! Choosing the entries of a mate suite to run, and the suite's results as
//! CSV, progress lines and a summary table.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::epd::MateEntry;
use crate::suite::{Group, Row};

/// Which entries of a suite to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Smallest |N| run.
    pub min_mate: u8,
    /// Largest |N| run.
    pub max_mate: u8,
    /// Only entries where the side to move mates (no `#-N`).
    pub mates_only: bool,
    /// At most this many entries per mate length.
    pub per_length: Option<usize>,
    /// Entries left out at the start of the selection (to resume a run).
    pub skip: usize,
}

impl Selection {
    /// The selected entries of `entries`, in file order.
    pub fn apply<'a>(&self, entries: &'a [MateEntry]) -> Vec<&'a MateEntry> {
        let (min, max) = (i32::from(self.min_mate), i32::from(self.max_mate));
        let mut taken: BTreeMap<i32, usize> = BTreeMap::new();
        entries
            .iter()
            .filter(|e| e.mate.abs() <= max && e.mate.abs() >= min && (!self.mates_only || e.mate > 0))
            .filter(|e| {
                let c = taken.entry(e.mate).or_default();
                *c += 1;
                self.per_length.is_none_or(|p| *c <= p)
            })
            .skip(self.skip)
            .collect()
    }
}

/// The header of [`csv_row`]'s rows.
pub const CSV_HEADER: &str = "line,id,expected,found,solved,seconds,nodes,nps,pv";

/// One row as CSV.
pub fn csv_row(row: &Row) -> String {
    format!(
        "{},{},{},{},{},{:.4},{},{:.0},\"{}\"",
        row.line,
        row.id.clone().unwrap_or_default(),
        row.expected,
        row.found.map(|f| f.to_string()).unwrap_or_default(),
        row.solved,
        row.seconds,
        row.nodes,
        row.nps,
        row.pv
    )
}

/// One row as a progress line: `[index/total] line L #N: solved …`.
pub fn progress_line(row: &Row, index: usize, total: usize) -> String {
    format!(
        "[{index}/{total}] line {} #{}: {} {:.3}s {} nodes {}",
        row.line,
        row.expected,
        if row.solved { "solved" } else { "NOT SOLVED" },
        row.seconds,
        row.nodes,
        if row.note.is_empty() { &row.pv } else { &row.note }
    )
}

/// A whole suite run.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteSummary {
    /// The suite file.
    pub file: String,
    /// Seconds allowed per position.
    pub time_limit_s: f64,
    /// Positions run.
    pub positions: usize,
    /// Positions solved.
    pub solved: usize,
    /// Summaries per mate length.
    pub groups: Vec<Group>,
    /// Every position's result.
    pub rows: Vec<Row>,
}

impl SuiteSummary {
    /// The summary of `rows`, run from `file` with `time_limit_s` seconds each.
    pub fn new(file: String, time_limit_s: f64, rows: Vec<Row>) -> SuiteSummary {
        SuiteSummary {
            file,
            time_limit_s,
            positions: rows.len(),
            solved: rows.iter().filter(|r| r.solved).count(),
            groups: crate::suite::group(&rows),
            rows,
        }
    }

    /// The table per mate length and the total, for a terminal.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{:>5} {:>6} {:>7} {:>9} {:>9} {:>12}",
            "mate", "count", "solved", "median s", "max s", "nodes/s"
        );
        for g in &self.groups {
            let _ = writeln!(
                out,
                "{:>5} {:>6} {:>7} {:>9.3} {:>9.3} {:>12.0}",
                g.mate, g.positions, g.solved, g.median_s, g.max_s, g.nps
            );
        }
        let _ =
            writeln!(out, "total: {}/{} solved within {:.1} s each", self.solved, self.positions, self.time_limit_s);
        out
    }
}
