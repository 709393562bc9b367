//! Independent check of a table: every position's stored value must equal the
//! minimax of its successors' values (looked up in the table itself and its
//! sub-tables, positions with an en-passant square by a one-ply search), and
//! exactly the illegal or non-canonical indices may be marked illegal.
//!
//! This uses forward move generation only, so it checks the generator's
//! un-moves, counters, exits and en-passant nodes from the other direction.

use crate::table::{TableData, TableSet};
use crate::value::{Dtm, ILLEGAL};
use bastion_core::Color;
use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::Serialize;

/// Result of a verification.
#[derive(Clone, Debug, Default, Serialize)]
pub struct VerifyReport {
    /// The ending.
    pub ending: String,
    /// Positions checked (legal, canonical; both sides to move).
    pub checked: u64,
    /// Positions whose value differs from the minimax of their successors.
    pub mismatches: u64,
    /// Up to ten examples: FEN, stored value, minimax value.
    pub examples: Vec<(String, String, String)>,
}

impl VerifyReport {
    /// True if no position failed.
    pub fn ok(&self) -> bool {
        self.mismatches == 0 && self.checked > 0
    }
}

/// Verifies `t`; `set` must contain `t`'s sub-tables and `t` itself.
pub fn verify(t: &TableData, set: &TableSet, progress: &ProgressBar) -> VerifyReport {
    verify_every(t, set, progress, 1)
}

/// Verifies every `step`-th index only (a sample, for very large tables).
pub fn verify_every(t: &TableData, set: &TableSet, progress: &ProgressBar, step: u64) -> VerifyReport {
    let step = step.max(1);
    let ix = &t.indexer;
    let n = ix.size();
    progress.set_length(2 * n);
    let mut report = VerifyReport { ending: t.material().name(), ..Default::default() };
    for side in Color::ALL {
        let parts: Vec<VerifyReport> = (0..n.div_ceil(1 << 14))
            .into_par_iter()
            .map(|c| {
                let mut r = VerifyReport::default();
                let end = ((c + 1) << 14).min(n);
                for idx in (c << 14..end).filter(|i| i % step == 0) {
                    let code = t.values[side.index()].get(idx as usize);
                    let expected = match ix.position(idx, side) {
                        None => None,
                        Some(pos) => Some(match set.probe_by_moves(&pos) {
                            Ok(Some(v)) => v,
                            _ => {
                                r.mismatches += 1;
                                continue;
                            }
                        }),
                    };
                    let stored = Dtm::from_code(code);
                    let good = match (expected, stored) {
                        (None, _) => code == ILLEGAL,
                        (Some(e), Some(s)) => {
                            r.checked += 1;
                            e == s
                        }
                        (Some(_), None) => {
                            r.checked += 1;
                            false
                        }
                    };
                    if !good {
                        r.mismatches += 1;
                        if r.examples.len() < 10 {
                            let fen = ix.position(idx, side).map(|p| p.fen()).unwrap_or_else(|| format!("index {idx}"));
                            r.examples.push((fen, format!("{stored:?}"), format!("{expected:?}")));
                        }
                    }
                }
                progress.inc(end - (c << 14));
                r
            })
            .collect();
        for p in parts {
            report.checked += p.checked;
            report.mismatches += p.mismatches;
            for e in p.examples {
                if report.examples.len() < 10 {
                    report.examples.push(e);
                }
            }
        }
    }
    report
}

/// Convenience: the value any position in the table should have, for tests.
pub fn minimax(set: &TableSet, pos: &bastion_core::Position) -> Option<Dtm> {
    set.probe_by_moves(pos).ok().flatten()
}
