//! Mate-sequence optimizer hook (Vučković, thesis, §7.4): when the search announces a
//! mate, a dedicated zero-evaluation solver proves the shortest one, and the
//! engine reports and plays that line. The search's own mate scores can be
//! longer than necessary (pruning, reductions, table grafts). The engine
//! depends on no solver: the `bastion` binary plugs in `bastion-solver`.

use crate::score::Score;
use crate::search::SearchResult;
use bastion_core::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Mates longer than this (in moves) are left to the search: proving them can
/// take far longer than the move's time.
pub const MAX_PROVED_MATE: i32 = 12;

/// How much work the prover may do for one move.
#[derive(Clone, Copy, Debug)]
pub struct MateBudget<'a> {
    /// Solver nodes at most (deterministic: node- and depth-limited searches use only this).
    pub nodes: u64,
    /// Wall-clock limit, for searches under a clock.
    pub deadline: Option<Instant>,
    /// Raised by the UCI `stop` command.
    pub stop: &'a AtomicBool,
}

/// Something that proves shortest forced mates.
pub trait MateProver: Send + Sync {
    /// The shortest forced mate for the side to move in at most `max_moves`
    /// moves, as its main line (attacker's moves and the longest defence);
    /// `None` when there is none that short or the budget ran out first.
    fn shortest_mate(&self, pos: &Position, max_moves: u32, budget: &MateBudget) -> Option<Vec<Move>>;
}

/// The proved shortest mating line when the search's result announces a mate
/// for the side to move (2 to [`MAX_PROVED_MATE`] moves) and the prover
/// confirms one at least as short within its budget. The prover knows nothing of
/// the 50-move rule: a line that mates only after the halfmove clock reached 100 is
/// no mate (the game is drawn first), and the search's move stands.
pub fn proved_mate_line(
    prover: &dyn MateProver,
    pos: &Position,
    result: &SearchResult,
    budget: &MateBudget,
) -> Option<Vec<Move>> {
    let Score::Mate(n) = result.score else { return None };
    if !(2..=MAX_PROVED_MATE).contains(&n) {
        return None;
    }
    let line = prover.shortest_mate(pos, n as u32, budget)?;
    let moves = line.len().div_ceil(2);
    let legal = line.first().is_some_and(|&m| pos.is_legal(m));
    let in_time = pos.halfmove_clock() as usize + line.len() <= 100;
    (legal && in_time && line.len() % 2 == 1 && moves <= n as usize).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::PvLine;

    /// Answers with a fixed line.
    struct Fixed(Vec<&'static str>);

    impl MateProver for Fixed {
        fn shortest_mate(&self, pos: &Position, _max: u32, _budget: &MateBudget) -> Option<Vec<Move>> {
            let mut p = pos.clone();
            let mut line = Vec::new();
            for uci in &self.0 {
                let m = p.parse_uci(uci).ok()?;
                line.push(m);
                p = p.play(m);
            }
            Some(line)
        }
    }

    #[test]
    fn a_mate_after_the_fifty_move_limit_is_no_mate() {
        // KQvKR: Qe4 mates in three, five plies; with 96 plies on the clock the 50-move
        // rule ends the game one ply before the mate.
        let prover = Fixed(vec!["f5e4", "b1a1", "e4h1", "c2c1", "h1c1"]);
        let stop = AtomicBool::new(false);
        let budget = MateBudget { nodes: 1000, deadline: None, stop: &stop };
        for (clock, proved) in [(95, true), (96, false)] {
            let pos = Position::from_fen(&format!("8/8/8/5Q2/8/K7/2r5/1k6 w - - {clock} 49")).unwrap();
            let result = SearchResult {
                best: None,
                ponder: None,
                score: Score::Mate(3),
                value: 0,
                pv: Vec::new(),
                lines: Vec::<PvLine>::new(),
                depth: 1,
                seldepth: 1,
                nodes: 1,
                time_ms: 0,
            };
            assert_eq!(proved_mate_line(&prover, &pos, &result, &budget).is_some(), proved, "clock {clock}");
        }
    }
}
