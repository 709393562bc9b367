//! The vote that picks a cluster search's move from the ranks' answers, weighted by depth and
//! score as Stockfish's Lazy SMP picks among its threads (`Thread::get_best_thread`): every
//! rank gives its move `(score - lowest score + 14) × depth` votes, the move with the most
//! votes wins, and a proven mate overrides the count (the shortest mate, or when mated, the
//! longest defence).

use bastion_core::Score;
use std::collections::HashMap;

/// One rank's answer to a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vote {
    /// The rank.
    pub rank: usize,
    /// Its move in UCI notation (`0000`: none).
    pub best: String,
    /// Its `bestmove` line, printed as it is when this vote wins.
    pub bestmove: String,
    /// The depth of its last report (0: none).
    pub depth: u32,
    /// The score of its last report (`None`: none).
    pub score: Option<Score>,
    /// The `info` line of that report.
    pub info: Option<String>,
}

impl Vote {
    /// The vote of `rank` from its `bestmove` line and the last `info` line with a usable
    /// report ([`report`]); `None` when `bestmove` is not a `bestmove` line.
    pub fn new(rank: usize, info: Option<&str>, bestmove: &str) -> Option<Vote> {
        let mut words = bestmove.split_whitespace();
        if words.next() != Some("bestmove") {
            return None;
        }
        let best = words.next().unwrap_or("0000").to_string();
        let (depth, score) = info.and_then(report).map_or((0, None), |(d, s)| (d, Some(s)));
        Some(Vote {
            rank,
            best,
            bestmove: bestmove.trim().to_string(),
            depth,
            score,
            info: info.filter(|_| score.is_some()).map(str::to_string),
        })
    }

    fn plays(&self) -> bool {
        self.best != "0000"
    }
}

/// The depth and score of an `info` line that reports the first line with a score the move
/// can stand on: not a `currmove` or `string` line, not another MultiPV line, not a fail-low
/// (`upperbound`, whose move is not the one the search would play).
pub fn report(line: &str) -> Option<(u32, Score)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || words.contains(&"upperbound") || words.contains(&"string") {
        return None;
    }
    let value = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1));
    if value("multipv").is_some_and(|k| *k != "1") {
        return None;
    }
    let depth = value("depth")?.parse().ok()?;
    let at = words.iter().position(|w| *w == "score")?;
    let score = Score::from_uci(words.get(at + 1)?, words.get(at + 2)?.parse().ok()?)?;
    Some((depth, score))
}

/// The winning vote: rank 0's when no rank has a move (a position without legal moves) or
/// when the count ties; `None` only for no votes at all.
pub fn pick(votes: &[Vote]) -> Option<&Vote> {
    let first = votes.iter().min_by_key(|v| v.rank)?;
    let mut playing: Vec<&Vote> = votes.iter().filter(|v| v.plays()).collect();
    playing.sort_by_key(|v| v.rank);
    let Some(&lead) = playing.first() else { return Some(first) };
    let value = |v: &Vote| v.score.map_or(i64::MIN / 4, |s| i64::from(s.ordinal()));
    let lowest = playing.iter().filter(|v| v.score.is_some()).map(|v| value(v)).min().unwrap_or(0);
    let mut count: HashMap<&str, i64> = HashMap::new();
    for v in playing.iter().filter(|v| v.score.is_some()) {
        *count.entry(v.best.as_str()).or_default() += (value(v) - lowest + 14) * i64::from(v.depth);
    }
    let votes_for = |v: &Vote| count.get(v.best.as_str()).copied().unwrap_or(0);
    let mut best = lead;
    for &v in &playing[1..] {
        let mated = |v: &Vote| v.score.is_some_and(|s| s.mate().is_some_and(|m| m <= 0));
        let mates = |v: &Vote| v.score.is_some_and(|s| s.mate().is_some_and(|m| m > 0));
        if best.score.is_some_and(|s| s.mate().is_some()) {
            // A proven result: the shortest mate, or the longest defence against one.
            if value(v) > value(best) {
                best = v;
            }
        } else if mates(v) || (v.score.is_some() && !mated(v) && votes_for(v) > votes_for(best)) {
            best = v;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vote(rank: usize, best: &str, depth: u32, score: &str) -> Vote {
        let info = format!("info depth {depth} seldepth 20 multipv 1 score {score} nodes 1 nps 1 pv {best}");
        Vote::new(rank, Some(&info), &format!("bestmove {best}")).expect("a vote")
    }

    #[test]
    fn reports_come_from_scored_first_lines_only() {
        assert_eq!(
            report("info depth 12 seldepth 18 multipv 1 score cp 31 nodes 5 pv e2e4"),
            Some((12, Score::Cp(31)))
        );
        assert_eq!(
            report("info depth 9 seldepth 9 multipv 1 score mate -2 lowerbound pv e2e4"),
            Some((9, Score::Mate(-2)))
        );
        assert_eq!(report("info depth 12 multipv 1 score cp 31 upperbound pv e2e4"), None);
        assert_eq!(report("info depth 12 multipv 2 score cp 31 pv d2d4"), None);
        assert_eq!(report("info depth 14 currmove e2e4 currmovenumber 1"), None);
        assert_eq!(report("info string depth 3 score cp 1"), None);
        assert_eq!(report("bestmove e2e4"), None);
    }

    #[test]
    fn deeper_and_better_moves_win_and_agreement_adds_up() {
        // Two shallower ranks agreeing outvote one deeper rank.
        let votes = [vote(0, "e2e4", 10, "cp 20"), vote(1, "d2d4", 12, "cp 20"), vote(2, "d2d4", 9, "cp 20")];
        assert_eq!(pick(&votes).map(|v| v.best.as_str()), Some("d2d4"));
        // At equal depth the better score wins.
        let votes = [vote(0, "e2e4", 10, "cp 20"), vote(1, "d2d4", 10, "cp 60")];
        assert_eq!(pick(&votes).map(|v| v.rank), Some(1));
        // A tie stays with rank 0.
        let votes = [vote(0, "e2e4", 10, "cp 20"), vote(1, "d2d4", 10, "cp 20")];
        assert_eq!(pick(&votes).map(|v| v.rank), Some(0));
    }

    #[test]
    fn a_proven_mate_beats_the_count_and_the_shortest_wins() {
        let votes = [vote(0, "e2e4", 20, "cp 300"), vote(1, "h5f7", 8, "mate 3"), vote(2, "d1h5", 9, "mate 2")];
        assert_eq!(pick(&votes).map(|v| v.best.as_str()), Some("d1h5"));
        // Mated: the longest defence.
        let votes = [vote(0, "e1e2", 12, "mate -2"), vote(1, "e1d1", 10, "mate -4")];
        assert_eq!(pick(&votes).map(|v| v.best.as_str()), Some("e1d1"));
        // A rank that sees itself mated does not take the move over by votes.
        let votes = [vote(0, "e1e2", 6, "cp -50"), vote(1, "e1d1", 30, "mate -9")];
        assert_eq!(pick(&votes).map(|v| v.rank), Some(0));
    }

    #[test]
    fn answers_without_moves_or_reports() {
        let none = Vote::new(0, None, "bestmove 0000").expect("a vote");
        assert_eq!(pick(std::slice::from_ref(&none)), Some(&none));
        // A rank stopped before its first report has a move but no weight.
        let bare = Vote::new(1, None, "bestmove a2a3").expect("a vote");
        assert_eq!((bare.depth, bare.score), (0, None));
        let votes = [vote(0, "e2e4", 5, "cp 10"), bare];
        assert_eq!(pick(&votes).map(|v| v.rank), Some(0));
        assert_eq!(Vote::new(0, None, "info depth 1"), None);
        assert!(pick(&[]).is_none());
    }
}
