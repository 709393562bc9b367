//! Reports of the `bastion tb` tools as data and text: a generation run, a
//! probe of one position with every move's value and the optimal line,
//! statistics and verification results.

use std::fmt::Write as _;

use bastion_core::Position;
use serde::Serialize;

use crate::driver::BuildRecord;
use crate::error::TbError;
use crate::metric::Metric;
use crate::probe::Tablebases;
use crate::stats::Stats;
use crate::value::Dtm;
use crate::verify::VerifyReport;

/// Bytes as mebibytes.
fn mib(b: u64) -> f64 {
    b as f64 / (1024.0 * 1024.0)
}

impl BuildRecord {
    /// One line for a terminal: time, positions and rate, longest mate, file
    /// size and memory, or that a complete file was already there.
    pub fn to_line(&self) -> String {
        if self.skipped {
            return format!(
                "{:<7} {} already complete ({} bytes, checksums good)",
                self.ending,
                self.metric.name().to_uppercase(),
                self.file_bytes
            );
        }
        format!(
            "{:<7} {:>8.2} s  {:>12} positions ({:.0}/s)  max {} {:>3} plies  file {:>10} bytes  work {:.1} MiB  peak RSS {:.1} MiB",
            self.ending,
            self.seconds,
            2 * self.indices_per_side,
            2.0 * self.indices_per_side as f64 / self.seconds.max(1e-9),
            self.metric.name().to_uppercase(),
            self.max_plies,
            self.file_bytes,
            mib(self.work_bytes),
            mib(self.peak_rss_bytes.unwrap_or(0)),
        )
    }
}

/// A whole generation run.
#[derive(Debug, Serialize)]
pub struct GenReport<'a> {
    /// Worker threads.
    pub threads: usize,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Peak resident memory of the process, bytes (Linux only).
    pub peak_rss_bytes: Option<u64>,
    /// One record per ending, in generation order.
    pub endings: &'a [BuildRecord],
}

impl GenReport<'_> {
    /// The closing line for a terminal.
    pub fn to_line(&self) -> String {
        let bytes: u64 = self.endings.iter().map(|r| r.file_bytes).sum();
        format!(
            "done: {} endings in {:.2} s, {bytes} bytes of tables, peak RSS {:.1} MiB",
            self.endings.len(),
            self.seconds,
            mib(self.peak_rss_bytes.unwrap_or(0))
        )
    }
}

/// One legal move of a probed position and the value it leads to.
#[derive(Debug, Clone, Serialize)]
pub struct ProbedMove {
    /// The move in UCI notation.
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// The value of the position after it, for the side that moved.
    pub value: Dtm,
}

/// A position probed in the DTM tables.
#[derive(Debug, Clone, Serialize)]
pub struct ProbeReport {
    /// The position.
    pub fen: String,
    /// Its ending, stronger side first.
    pub ending: String,
    /// What the tables' distances count (`"dtm"`, `"dtc"` or `"dtz"`).
    pub metric: Metric,
    /// Its value for the side to move (plies to mate, or to conversion for DTC tables).
    pub value: Dtm,
    /// Win, draw or loss (written `"win"`, `"draw"`, `"loss"`).
    #[serde(serialize_with = "lowercase_name")]
    pub wdl: crate::Wdl,
    /// Moves to mate (either way), when decided and the tables are DTM tables.
    pub mate_in_moves: Option<u16>,
    /// Moves of the winning side to the conversion, when decided and the tables
    /// are DTC tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversion_in_moves: Option<u16>,
    /// Syzygy's signed distance to zeroing in plies ([`crate::Dtm::signed_dtz`]),
    /// when the tables are DTZ tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dtz: Option<i32>,
    /// Every legal move's value.
    pub moves: Vec<ProbedMove>,
    /// The optimal line in SAN (empty when drawn or over): to mate, or for DTC
    /// (DTZ) tables to the conversion (the zeroing move).
    pub line: Vec<String>,
    /// The board, for the text report.
    #[serde(skip)]
    board: String,
}

/// Writes a unit variant as its lowercase name.
fn lowercase_name<T: std::fmt::Debug, S: serde::Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format!("{value:?}").to_lowercase())
}

/// Why a position could not be probed.
#[derive(Debug)]
pub enum ProbeError {
    /// No table for the position's own ending.
    NoTable,
    /// A table needed for the value of a successor is missing.
    NoSuccessorTable,
    /// Reading a table failed.
    Tables(TbError),
}

impl From<TbError> for ProbeError {
    fn from(e: TbError) -> ProbeError {
        ProbeError::Tables(e)
    }
}

/// Longest optimal line reported, in plies.
const MAX_LINE_PLIES: usize = 400;

impl ProbeReport {
    /// Probes `pos`: its value, every legal move's value and the optimal line.
    pub fn probe(tbs: &Tablebases, pos: &Position) -> Result<ProbeReport, ProbeError> {
        let metric = tbs.metric();
        let value = tbs.try_probe_dtm(pos)?.ok_or(ProbeError::NoTable)?;
        let moves = tbs.try_move_values(pos)?.ok_or(ProbeError::NoSuccessorTable)?;
        let mut p = pos.clone();
        let mut line = Vec::new();
        for m in tbs.try_line(pos, MAX_LINE_PLIES)? {
            line.push(p.san(m));
            p = p.play(m);
        }
        Ok(ProbeReport {
            fen: pos.fen(),
            ending: crate::Material::of(pos).normalized().0.name(),
            metric,
            value,
            wdl: value.wdl(),
            mate_in_moves: value.moves().filter(|_| metric == Metric::Dtm),
            conversion_in_moves: value.moves().filter(|_| metric == Metric::Dtc),
            dtz: (metric == Metric::Dtz).then(|| value.signed_dtz()),
            moves: moves
                .iter()
                .map(|m| ProbedMove { uci: pos.to_uci(m.mv), san: pos.san(m.mv), value: m.value })
                .collect(),
            line,
            board: pos.to_string(),
        })
    }

    /// The board, the value, every move's value and the optimal line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{}", self.board);
        let _ = writeln!(out, "ending {}: {}", self.ending, self.metric.describe(self.value));
        for m in &self.moves {
            let _ = writeln!(out, "  {:<8} {:<6} {}", m.san, m.uci, self.metric.describe(m.value));
        }
        if self.line.is_empty() {
            let _ = writeln!(out, "optimal line: (none: drawn or game over)");
        } else {
            let _ = writeln!(out, "optimal line: {}", self.line.join(" "));
        }
        out
    }
}

impl Stats {
    /// The statistics for a terminal, `file_len` being the table file's size.
    pub fn to_text(&self, file_len: u64) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        match self.metric {
            Metric::Dtm => {
                let _ = writeln!(out, "{} ({} bytes)", self.ending, file_len);
            }
            Metric::Dtc | Metric::Dtz => {
                let _ = writeln!(out, "{} {} ({} bytes)", self.ending, self.metric.name().to_uppercase(), file_len);
            }
        }
        if self.metric == Metric::Dtz {
            // Stored plies: a loss of 0 (every move zeroes into a loss) is Syzygy's -1.
            let _ = writeln!(out, "  distances in plies to the next capture, pawn move or mate");
        }
        let dtc = self.metric != Metric::Dtm;
        let (tag, to) = if self.metric == Metric::Dtz { ("DTZ", "zeroing") } else { ("DTC", "conversion") };
        for (name, st) in ["White to move", "Black to move"].iter().zip(&self.sides) {
            let _ = writeln!(
                out,
                "  {name}: {} legal ({} up to symmetry); wins {} / draws {} / losses {} (up to symmetry); full board {} / {} / {}",
                st.legal_full, st.legal, st.wins, st.draws, st.losses, st.wins_full, st.draws_full, st.losses_full
            );
            let hist = |h: &[u64]| -> String {
                let cells: Vec<String> =
                    h.iter().enumerate().filter(|(_, &c)| c > 0).map(|(p, c)| format!("{p}:{c}")).collect();
                cells.join(" ")
            };
            if dtc {
                if let Some((p, fen)) = &st.longest_win {
                    let _ = writeln!(
                        out,
                        "    longest win: {tag} {p} plies ({to} in {}), e.g. {fen}",
                        crate::metric::moves(p.div_ceil(2))
                    );
                }
                if let Some((p, fen)) = &st.longest_loss {
                    let _ = writeln!(
                        out,
                        "    longest loss: {tag} {p} plies ({to} in {}), e.g. {fen}",
                        crate::metric::moves(p / 2)
                    );
                }
                let _ = writeln!(out, "    plies to {to}:count  {}", hist(&st.histogram));
                let _ = writeln!(out, "    full board:  {}", hist(&st.histogram_full));
                continue;
            }
            if let Some((p, fen)) = &st.longest_win {
                let _ = writeln!(out, "    longest win: mate in {} ({p} plies), e.g. {fen}", p.div_ceil(2));
            }
            if let Some((p, fen)) = &st.longest_loss {
                let _ = writeln!(out, "    longest loss: mated in {} ({p} plies), e.g. {fen}", p / 2);
            }
            let _ = writeln!(out, "    plies to mate:count  {}", hist(&st.histogram));
        }
        out
    }
}

impl VerifyReport {
    /// The result for a terminal: positions checked (of every `every`-th
    /// index), time taken, and each mismatch found.
    pub fn to_text(&self, every: u64, seconds: f64) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "{:<7} {} positions checked{} in {:.2} s: {}",
            self.ending,
            self.checked,
            if every > 1 { format!(" (1 in {every} indices)") } else { String::new() },
            seconds,
            if self.ok() { "OK".to_string() } else { format!("{} MISMATCHES", self.mismatches) }
        );
        for (fen, stored, expected) in &self.examples {
            let _ = writeln!(out, "    {fen}: stored {stored}, minimax {expected}");
        }
        out
    }
}
