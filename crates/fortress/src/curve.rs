//! Curves of backed-up evaluations against depth, and their collection from
//! an engine's `info` lines.

use std::collections::BTreeMap;

use bastion_core::Color;
use bastion_uci_client::Info;
use serde::{Deserialize, Serialize};

use crate::score::Eval;

/// The evaluation of one move at one depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    /// Nominal search depth in plies (of the analysed position).
    pub depth: u32,
    /// Backed-up evaluation, White's view.
    pub eval: Eval,
}

/// One move's evaluations at successive depths (gaps where the move was not
/// among the reported lines at that depth).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// The move in SAN.
    pub san: String,
    /// The move in UCI notation.
    pub uci: String,
    /// Points in increasing depth.
    pub evals_by_depth: Vec<Point>,
}

impl Curve {
    /// The evaluation at `depth`, if recorded.
    pub fn at(&self, depth: u32) -> Option<Eval> {
        self.evals_by_depth.iter().find(|p| p.depth == depth).map(|p| p.eval)
    }

    /// The deepest recorded point.
    pub fn last(&self) -> Option<Point> {
        self.evals_by_depth.last().copied()
    }

    /// A copy keeping only points up to `depth`.
    pub fn truncated(&self, depth: u32) -> Curve {
        Curve {
            san: self.san.clone(),
            uci: self.uci.clone(),
            evals_by_depth: self.evals_by_depth.iter().copied().filter(|p| p.depth <= depth).collect(),
        }
    }
}

/// Time spent up to the end of each depth (Guid & Bratko 2012, Fig. 7).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DepthTime {
    /// Nominal depth.
    pub depth: u32,
    /// Milliseconds from `go` until the last line of this depth arrived.
    pub ms: u64,
}

/// Collects the per-depth, per-line evaluations of one search.
///
/// For each (depth, multipv) the last scored, non-bound line wins: engines
/// print fail-high/low bounds during an iteration and the exact line at its
/// end, and may repeat a line when the PV changes.
#[derive(Debug, Clone, Default)]
pub struct DepthTable {
    side_to_move: Option<Color>,
    /// (depth, multipv) → (first PV move, eval White's view).
    lines: BTreeMap<(u32, u32), (String, Eval)>,
    /// (depth, multipv) → the whole PV (UCI) of that line.
    pvs: BTreeMap<(u32, u32), Vec<String>>,
    /// depth → milliseconds at the latest line of that depth.
    times: BTreeMap<u32, u64>,
}

impl DepthTable {
    /// An empty table for a search from a position with `side_to_move`.
    pub fn new(side_to_move: Color) -> Self {
        DepthTable { side_to_move: Some(side_to_move), ..Self::default() }
    }

    /// Feeds one `info` line, received `elapsed_ms` after `go`.
    /// Lines without depth, score or PV, and bound lines, are ignored.
    pub fn ingest(&mut self, info: &Info, elapsed_ms: u64) {
        let (Some(depth), Some(score)) = (info.depth, info.score) else {
            return;
        };
        if info.lowerbound || info.upperbound {
            return;
        }
        let Some(first) = info.pv.first() else {
            return;
        };
        let side = self.side_to_move.unwrap_or(Color::White);
        let multipv = info.multipv.unwrap_or(1);
        self.lines.insert((depth, multipv), (first.clone(), Eval::from_score(score, side)));
        self.pvs.insert((depth, multipv), info.pv.clone());
        let ms = info.time.unwrap_or(elapsed_ms);
        let t = self.times.entry(depth).or_insert(ms);
        *t = (*t).max(ms);
    }

    /// Depths with at least one exact line, ascending.
    pub fn depths(&self) -> Vec<u32> {
        let mut d: Vec<u32> = self.lines.keys().map(|&(d, _)| d).collect();
        d.dedup();
        d
    }

    /// The moves at `depth` in multipv order, each with its evaluation.
    /// A move reported under two multipv slots keeps its better-ranked one.
    pub fn at_depth(&self, depth: u32) -> Vec<(String, Eval)> {
        let mut out: Vec<(String, Eval)> = Vec::new();
        for ((_, _), (mv, eval)) in self.lines.range((depth, 0)..=(depth, u32::MAX)) {
            if !out.iter().any(|(m, _)| m == mv) {
                out.push((mv.clone(), *eval));
            }
        }
        out
    }

    /// Cumulative time at the end of each depth.
    pub fn times(&self) -> Vec<DepthTime> {
        self.times.iter().map(|(&depth, &ms)| DepthTime { depth, ms }).collect()
    }

    /// Curves for `moves` (UCI) over all depths from `min_depth` on,
    /// `depth_offset` added to each depth (1 when a child position's search
    /// stands for a root move's). `san` names each move.
    pub fn curves_for(
        &self,
        moves: &[String],
        min_depth: u32,
        depth_offset: u32,
        san: impl Fn(&str) -> String,
    ) -> Vec<Curve> {
        let depths = self.depths();
        moves
            .iter()
            .map(|mv| Curve {
                san: san(mv),
                uci: mv.clone(),
                evals_by_depth: depths
                    .iter()
                    .filter(|&&d| d + depth_offset >= min_depth)
                    .filter_map(|&d| {
                        self.at_depth(d)
                            .into_iter()
                            .find(|(m, _)| m == mv)
                            .map(|(_, eval)| Point { depth: d + depth_offset, eval })
                    })
                    .collect(),
            })
            .collect()
    }

    /// The best line's evaluation at every depth (the position's value as the
    /// engine backs it up), each depth shifted by `depth_offset`.
    pub fn principal(&self, min_depth: u32, depth_offset: u32) -> Vec<Point> {
        self.depths()
            .into_iter()
            .filter(|&d| d + depth_offset >= min_depth)
            .filter_map(|d| self.at_depth(d).first().map(|(_, eval)| Point { depth: d + depth_offset, eval: *eval }))
            .collect()
    }

    /// The principal variation (UCI) of the line starting with `first` at
    /// the deepest depth that has one; empty when none does.
    pub fn line_of(&self, first: &str) -> Vec<String> {
        self.pvs
            .iter()
            .rev()
            .find(|(_, pv)| pv.first().is_some_and(|m| m == first))
            .map(|(_, pv)| pv.clone())
            .unwrap_or_default()
    }

    /// A copy without the lines of `depth` (an iteration cut off mid-way).
    pub fn without_depth(mut self, depth: u32) -> DepthTable {
        self.lines.retain(|&(d, _), _| d != depth);
        self.pvs.retain(|&(d, _), _| d != depth);
        self.times.remove(&depth);
        self
    }

    /// The moves of the deepest depth, best first.
    pub fn final_moves(&self) -> Vec<String> {
        self.depths().last().map(|&d| self.at_depth(d).into_iter().map(|(m, _)| m).collect()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastion_uci_client::parse_info;

    fn feed(table: &mut DepthTable, lines: &[&str]) {
        for l in lines {
            table.ingest(&parse_info(l), 0);
        }
    }

    #[test]
    fn keeps_last_exact_line_and_skips_bounds() {
        let mut t = DepthTable::new(Color::White);
        feed(
            &mut t,
            &[
                "info depth 3 multipv 1 score cp 10 pv e2e4 e7e5",
                "info depth 3 multipv 2 score cp 5 pv d2d4",
                "info depth 4 multipv 1 score cp 900 lowerbound pv g1f3",
                "info depth 4 multipv 1 score cp 20 pv d2d4",
                "info depth 4 multipv 2 score cp 15 pv e2e4",
                "info depth 4 multipv 1 score cp 25 pv d2d4",
                "info depth 4 currmove e2e4 currmovenumber 1",
                "info depth 5 multipv 1 score cp -300 upperbound pv a2a3",
            ],
        );
        assert_eq!(t.depths(), vec![3, 4]);
        assert_eq!(t.at_depth(4), vec![("d2d4".into(), Eval::Cp(25)), ("e2e4".into(), Eval::Cp(15))]);
        let c = t.curves_for(&["e2e4".into()], 2, 0, |m| m.to_owned());
        assert_eq!(
            c[0].evals_by_depth,
            vec![Point { depth: 3, eval: Eval::Cp(10) }, Point { depth: 4, eval: Eval::Cp(15) }]
        );
        // The deepest line of a move, with its whole PV.
        assert_eq!(t.line_of("e2e4"), vec!["e2e4".to_owned()]);
        feed(&mut t, &["info depth 5 multipv 2 score cp 12 pv e2e4 e7e5 g1f3"]);
        assert_eq!(t.line_of("e2e4"), vec!["e2e4".to_owned(), "e7e5".into(), "g1f3".into()]);
        assert!(t.line_of("a2a3").is_empty(), "bound lines keep no PV");
    }

    #[test]
    fn black_to_move_scores_are_flipped_and_mates_kept() {
        let mut t = DepthTable::new(Color::Black);
        feed(&mut t, &["info depth 7 score mate 3 pv d8h4", "info depth 7 multipv 2 score cp 40 pv e7e5"]);
        assert_eq!(t.at_depth(7), vec![("d8h4".into(), Eval::Mate(-3)), ("e7e5".into(), Eval::Cp(-40))]);
        assert_eq!(t.principal(2, 1), vec![Point { depth: 8, eval: Eval::Mate(-3) }]);
    }
}
