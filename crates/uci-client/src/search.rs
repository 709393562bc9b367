//! Results and control of a single search.

use std::time::Duration;

use crate::info::{BestMove, Info, Score};

/// Answer of an info callback: keep searching or send `stop`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchControl {
    /// Let the search go on.
    Continue,
    /// Send `stop`; the search still ends with the engine's `bestmove`.
    Stop,
}

/// Everything the engine reported for one search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The final `bestmove` (and ponder move).
    pub best: BestMove,
    /// Every `info` line of the search, in order.
    pub infos: Vec<Info>,
    /// Time from sending `go` to receiving `bestmove`, measured on the line
    /// reader thread so delays in the caller are not counted.
    pub elapsed: Duration,
}

impl SearchResult {
    /// The best move in UCI notation, if the engine had one.
    pub fn best_move(&self) -> Option<&str> {
        self.best.best.as_deref()
    }

    /// The last scored `info` of the main line (multipv 1 or unset): the
    /// engine's final verdict on the position.
    pub fn final_info(&self) -> Option<&Info> {
        self.infos.iter().rev().find(|i| i.score.is_some() && matches!(i.multipv, None | Some(1)))
    }

    /// Score of [`SearchResult::final_info`].
    pub fn score(&self) -> Option<Score> {
        self.final_info().and_then(|i| i.score)
    }

    /// Deepest nominal depth of a scored `info` line. Lines without a score, such as
    /// `info depth 19 currmove e2e4 currmovenumber 1`, name the iteration being searched,
    /// not one completed, so they do not count (with them, the depth reached at fixed
    /// nodes would depend on whether the search ran long enough to send them).
    pub fn depth(&self) -> Option<u32> {
        self.infos.iter().filter(|i| i.score.is_some()).filter_map(|i| i.depth).max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_only_scored_lines() {
        let infos = [
            "info depth 18 seldepth 25 score cp 31 nodes 1000 pv e2e4",
            "info depth 19 currmove e2e4 currmovenumber 1",
        ]
        .into_iter()
        .map(crate::info::parse_info)
        .collect();
        let r = SearchResult { best: BestMove::default(), infos, elapsed: Duration::ZERO };
        assert_eq!(r.depth(), Some(18));
    }
}
