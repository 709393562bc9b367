//! How an engine spends its clock over a match: time and depth a move, and the least time
//! it had left when a move arrived — the figures that show whether its time management suits
//! the time control (a clock run down to the margin is a forfeit waiting for a loaded machine).

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One engine move as the referee timed it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTiming {
    /// From `go` to `bestmove`.
    pub elapsed: Duration,
    /// The deepest scored `info depth` of the search, if the engine sent one.
    pub depth: Option<u32>,
    /// The mover's clock when the move arrived, before its increment; `None` without a clock.
    pub clock_left: Option<Duration>,
}

/// One engine's clock use summed over moves (and over games: [`TimeUse::merge`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeUse {
    /// Engine moves counted (book moves are not).
    pub moves: u64,
    /// Seconds spent on them.
    pub seconds: f64,
    /// Moves that reported a depth, and the sum of those depths.
    pub depth_moves: u64,
    /// Sum of the reported depths.
    pub depth_sum: u64,
    /// The least clock left when a move arrived, in seconds (before the increment).
    pub lowest_clock: Option<f64>,
    /// Where that was: the PGN round of the game, when known.
    pub lowest_clock_round: Option<String>,
}

impl TimeUse {
    /// Counts one move of the game in PGN round `round`.
    pub fn add(&mut self, t: &MoveTiming, round: &str) {
        self.moves += 1;
        self.seconds += t.elapsed.as_secs_f64();
        if let Some(d) = t.depth {
            self.depth_moves += 1;
            self.depth_sum += u64::from(d);
        }
        if let Some(left) = t.clock_left {
            self.note_lowest(left.as_secs_f64(), Some(round.to_string()));
        }
    }

    /// Adds another tally (another game's) to this one.
    pub fn merge(&mut self, other: &TimeUse) {
        self.moves += other.moves;
        self.seconds += other.seconds;
        self.depth_moves += other.depth_moves;
        self.depth_sum += other.depth_sum;
        if let Some(low) = other.lowest_clock {
            self.note_lowest(low, other.lowest_clock_round.clone());
        }
    }

    fn note_lowest(&mut self, seconds: f64, round: Option<String>) {
        if !self.lowest_clock.is_some_and(|low| low <= seconds) {
            self.lowest_clock = Some(seconds);
            self.lowest_clock_round = round;
        }
    }

    /// Mean seconds a move.
    pub fn mean_seconds(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.seconds / self.moves as f64)
    }

    /// Mean depth of the moves that reported one.
    pub fn mean_depth(&self) -> Option<f64> {
        (self.depth_moves > 0).then(|| self.depth_sum as f64 / self.depth_moves as f64)
    }

    /// One line of a report: `812 moves, 0.213 s a move, depth 17.3, lowest clock 0.154 s
    /// (round 3.2)`.
    pub fn describe(&self) -> String {
        let mut s = format!("{} moves", self.moves);
        if let Some(m) = self.mean_seconds() {
            s.push_str(&format!(", {m:.3} s a move"));
        }
        if let Some(d) = self.mean_depth() {
            s.push_str(&format!(", depth {d:.1}"));
        }
        if let Some(low) = self.lowest_clock {
            s.push_str(&format!(", lowest clock at a move {low:.3} s"));
            if let Some(r) = &self.lowest_clock_round {
                s.push_str(&format!(" (round {r})"));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(ms: u64, depth: Option<u32>, left_ms: Option<u64>) -> MoveTiming {
        MoveTiming { elapsed: Duration::from_millis(ms), depth, clock_left: left_ms.map(Duration::from_millis) }
    }

    #[test]
    fn sums_means_and_the_lowest_clock_with_its_round() {
        let mut a = TimeUse::default();
        a.add(&timing(200, Some(16), Some(9_800)), "1.1");
        a.add(&timing(400, None, Some(150)), "1.1");
        let mut b = TimeUse::default();
        b.add(&timing(300, Some(20), Some(80)), "2.2");
        b.add(&timing(100, Some(12), None), "2.2");
        a.merge(&b);
        assert_eq!(a.moves, 4);
        assert!((a.mean_seconds().unwrap() - 0.25).abs() < 1e-9);
        assert_eq!(a.mean_depth(), Some(16.0));
        assert_eq!(a.lowest_clock, Some(0.08));
        assert_eq!(a.lowest_clock_round.as_deref(), Some("2.2"));
        assert_eq!(a.describe(), "4 moves, 0.250 s a move, depth 16.0, lowest clock at a move 0.080 s (round 2.2)");
        // Merging a tally with a higher low keeps the lower one and its round.
        let mut c = TimeUse::default();
        c.add(&timing(10, None, Some(5_000)), "3.1");
        a.merge(&c);
        assert_eq!(a.lowest_clock_round.as_deref(), Some("2.2"));
    }

    #[test]
    fn no_moves_no_means() {
        let t = TimeUse::default();
        assert_eq!(t.mean_seconds(), None);
        assert_eq!(t.mean_depth(), None);
        assert_eq!(t.describe(), "0 moves");
    }
}
