//! How an engine spends its clock over a match: time and depth a move, the least time it
//! had left when a move arrived, and how its time a move falls over the game — the figures
//! that show whether its time management suits the time control (a clock run down to the
//! margin is a forfeit waiting for a loaded machine). The same tally is read back from PGN
//! move comments (`score/depth time`, as cutechess-cli and `bastion match` write them).

use crate::pgn::PgnGame;
use crate::time_control::TimeControl;
use bastion_core::Color;
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

impl MoveTiming {
    /// The timing in a PGN move comment: `+0.35/17 0.210s` (a score, `/depth` when known,
    /// the seconds), possibly followed by `, …`; `None` for `book` and other comments.
    pub fn from_comment(comment: &str) -> Option<MoveTiming> {
        let mut words = comment.split(',').next()?.split_whitespace();
        let score = words.next()?;
        let seconds: f64 = words.next()?.strip_suffix('s')?.parse().ok()?;
        if words.next().is_some() || !seconds.is_finite() || !(0.0..1e7).contains(&seconds) {
            return None;
        }
        let depth = score.split_once('/').and_then(|(_, d)| d.parse().ok());
        Some(MoveTiming { elapsed: Duration::from_secs_f64(seconds), depth, clock_left: None })
    }
}

/// Moves in each step of [`TimeUse::profile`]: the engine's moves 1–10, 11–20, …
pub const PROFILE_STEP: u64 = 10;
/// Steps in [`TimeUse::profile`]; the last holds every move from 61 on.
pub const PROFILE_STEPS: usize = 7;

/// The moves of one step of the profile and the sum of their shares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileStep {
    /// Moves counted.
    pub moves: u64,
    /// Sum of each move's time divided by an even share of its clock.
    pub share_sum: f64,
}

/// One engine's clock use summed over moves and games ([`TimeUse::merge`]).
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
    /// By the engine's own move number in its game, in steps of [`PROFILE_STEP`] moves: each
    /// move's time divided by an even share of its clock (`base/40 + increment`, or
    /// `base/moves + increment` when the clock is refilled every `moves` moves). 1.0 is an
    /// even spread; how far the first steps lie above it is how front-loaded the engine is.
    /// Empty when no move was played on a clock.
    #[serde(default)]
    pub profile: Vec<ProfileStep>,
    /// Games the engine played on a clock …
    #[serde(default)]
    pub clock_games: u64,
    /// … and the sum over them of the clock it had after its last move (increment
    /// included), as a share of the base.
    #[serde(default)]
    pub end_clock_sum: f64,
}

impl TimeUse {
    /// One engine's clock use in one game: its timed moves in the order played, the game's
    /// PGN round and the engine's time control, when known.
    pub fn of_game<'a>(
        moves: impl IntoIterator<Item = &'a MoveTiming>,
        round: &str,
        tc: Option<&TimeControl>,
    ) -> TimeUse {
        let clock = match tc {
            Some(&TimeControl::Clock { base, increment, moves }) if !base.is_zero() => {
                let (base, inc) = (base.as_secs_f64(), increment.as_secs_f64());
                Some((base, inc, base / f64::from(moves.unwrap_or(40).max(1)) + inc))
            }
            _ => None,
        };
        let mut t = TimeUse::default();
        let mut last_left = None;
        for (i, m) in moves.into_iter().enumerate() {
            t.moves += 1;
            t.seconds += m.elapsed.as_secs_f64();
            if let Some(d) = m.depth {
                t.depth_moves += 1;
                t.depth_sum += u64::from(d);
            }
            if let Some(left) = m.clock_left {
                t.note_lowest(left.as_secs_f64(), Some(round.to_string()));
                last_left = Some(left.as_secs_f64());
            }
            if let Some((_, _, even)) = clock {
                let step = (i as u64 / PROFILE_STEP).min(PROFILE_STEPS as u64 - 1) as usize;
                if t.profile.len() <= step {
                    t.profile.resize(step + 1, ProfileStep::default());
                }
                t.profile[step].moves += 1;
                t.profile[step].share_sum += m.elapsed.as_secs_f64() / even;
            }
        }
        if let (Some((base, inc, _)), Some(left)) = (clock, last_left) {
            t.clock_games = 1;
            t.end_clock_sum = (left + inc) / base;
        }
        t
    }

    /// Each engine's clock use in a game read from PGN, by the names of its `White` and
    /// `Black` tags: the moves are timed by their comments, the clocks by the
    /// `TimeControl` tag (or `WhiteTimeControl`/`BlackTimeControl` at time odds). A game
    /// without a readable clock (multi-period controls such as `40/9000:300`, none given)
    /// still counts moves, seconds and depths.
    pub fn of_pgn_game(game: &PgnGame) -> [(String, TimeUse); 2] {
        let round = game.header("Round").unwrap_or("?");
        let mut sides: [(String, TimeUse); 2] = [Color::White, Color::Black].map(|c| {
            let name = game.header(if c == Color::White { "White" } else { "Black" }).unwrap_or("?");
            let tag = game
                .header(if c == Color::White { "WhiteTimeControl" } else { "BlackTimeControl" })
                .or_else(|| game.header("TimeControl"));
            let tc = tag.and_then(|t| TimeControl::parse_clock(t).ok());
            let timings = replay_clock(game, c, tc.as_ref());
            (name.to_string(), TimeUse::of_game(&timings, round, tc.as_ref()))
        });
        if sides[0].0 == sides[1].0 {
            // An engine against itself: one tally.
            let black = std::mem::take(&mut sides[1].1);
            sides[0].1.merge(&black);
        }
        sides
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
        if self.profile.len() < other.profile.len() {
            self.profile.resize(other.profile.len(), ProfileStep::default());
        }
        for (mine, theirs) in self.profile.iter_mut().zip(&other.profile) {
            mine.moves += theirs.moves;
            mine.share_sum += theirs.share_sum;
        }
        self.clock_games += other.clock_games;
        self.end_clock_sum += other.end_clock_sum;
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

    /// Mean share of an even spread of the clock, per step of the profile (`None` for a
    /// step without moves).
    pub fn profile_means(&self) -> Vec<Option<f64>> {
        self.profile.iter().map(|p| (p.moves > 0).then(|| p.share_sum / p.moves as f64)).collect()
    }

    /// Mean clock left after the last move, as a share of the base.
    pub fn mean_end_clock(&self) -> Option<f64> {
        (self.clock_games > 0).then(|| self.end_clock_sum / self.clock_games as f64)
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

    /// The profile as a line of a report, when moves were played on a clock:
    /// `a move ÷ even share, moves 1–10 1.52, 11–20 1.04, …, 61– 0.27; clock left at the end
    /// 11 % of the base`.
    pub fn describe_profile(&self) -> Option<String> {
        let steps: Vec<String> = self
            .profile_means()
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let from = i as u64 * PROFILE_STEP + 1;
                let to = if i + 1 == PROFILE_STEPS { String::new() } else { (from + PROFILE_STEP - 1).to_string() };
                m.map(|m| format!("{from}–{to} {m:.2}"))
            })
            .collect();
        if steps.is_empty() {
            return None;
        }
        let mut s = format!("a move ÷ even share, moves {}", steps.join(", "));
        if let Some(end) = self.mean_end_clock() {
            s.push_str(&format!("; clock left at the end {:.0} % of the base", 100.0 * end));
        }
        Some(s)
    }
}

/// The timed moves of `side` in `game`, with the clock each had left, replayed from the
/// comments' seconds as the referee keeps the clock (increment after each move, the base
/// added again every `moves` moves).
fn replay_clock(game: &PgnGame, side: Color, tc: Option<&TimeControl>) -> Vec<MoveTiming> {
    let first = game.start.side_to_move();
    let mut clock = match tc {
        Some(&TimeControl::Clock { base, .. }) => Some(base),
        _ => None,
    };
    let mut out = Vec::new();
    for (ply, comment) in game.comments.iter().enumerate() {
        let mover = if ply % 2 == 0 { first } else { !first };
        if mover != side {
            continue;
        }
        let Some(mut t) = MoveTiming::from_comment(comment) else { continue };
        if let (Some(c), Some(tc)) = (clock.as_mut(), tc) {
            let left = c.saturating_sub(t.elapsed);
            t.clock_left = Some(left);
            *c = tc.clock_after_move(left, out.len() as u32 + 1);
        }
        out.push(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(ms: u64, depth: Option<u32>, left_ms: Option<u64>) -> MoveTiming {
        MoveTiming { elapsed: Duration::from_millis(ms), depth, clock_left: left_ms.map(Duration::from_millis) }
    }

    fn clock(text: &str) -> TimeControl {
        TimeControl::parse_clock(text).unwrap()
    }

    #[test]
    fn sums_means_and_the_lowest_clock_with_its_round() {
        let mut a = TimeUse::of_game(&[timing(200, Some(16), Some(9_800)), timing(400, None, Some(150))], "1.1", None);
        let b = TimeUse::of_game(&[timing(300, Some(20), Some(80)), timing(100, Some(12), None)], "2.2", None);
        a.merge(&b);
        assert_eq!(a.moves, 4);
        assert!((a.mean_seconds().unwrap() - 0.25).abs() < 1e-9);
        assert_eq!(a.mean_depth(), Some(16.0));
        assert_eq!(a.lowest_clock, Some(0.08));
        assert_eq!(a.lowest_clock_round.as_deref(), Some("2.2"));
        assert_eq!(a.describe(), "4 moves, 0.250 s a move, depth 16.0, lowest clock at a move 0.080 s (round 2.2)");
        // Without a clock there is no profile.
        assert_eq!(a.describe_profile(), None);
        // Merging a tally with a higher low keeps the lower one and its round.
        a.merge(&TimeUse::of_game(&[timing(10, None, Some(5_000))], "3.1", None));
        assert_eq!(a.lowest_clock_round.as_deref(), Some("2.2"));
    }

    #[test]
    fn the_profile_divides_each_move_by_an_even_share_of_its_clock() {
        // 40+1: an even share is 40/40 + 1 = 2 s. Moves of 4 s, then 2 s, then 1 s.
        let moves: Vec<MoveTiming> = (0..75)
            .map(|i| {
                let ms = if i < 10 {
                    4000
                } else if i < 60 {
                    2000
                } else {
                    1000
                };
                timing(ms, Some(10), Some(30_000))
            })
            .collect();
        let t = TimeUse::of_game(&moves, "1", Some(&clock("40+1")));
        assert_eq!(t.profile.len(), PROFILE_STEPS);
        assert_eq!(t.profile.iter().map(|p| p.moves).collect::<Vec<_>>(), [10, 10, 10, 10, 10, 10, 15]);
        let means: Vec<f64> = t.profile_means().into_iter().map(Option::unwrap).collect();
        assert_eq!(means, [2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5]);
        // 30 s left before the last increment of 1 s: 31/40 of the base.
        assert_eq!(t.mean_end_clock(), Some(31.0 / 40.0));
        assert_eq!(
            t.describe_profile().unwrap(),
            "a move ÷ even share, moves 1–10 2.00, 11–20 1.00, 21–30 1.00, 31–40 1.00, 41–50 1.00, \
             51–60 1.00, 61– 0.50; clock left at the end 78 % of the base"
        );
        // Moves per period: 40/60 spreads 60 s over 40 moves.
        let t = TimeUse::of_game(&[timing(3000, None, Some(57_000))], "1", Some(&clock("40/60")));
        assert_eq!(t.profile_means(), [Some(2.0)]);
        // Merging adds move by move and game by game.
        let mut a = TimeUse::of_game(&moves[..5], "1", Some(&clock("40+1")));
        a.merge(&TimeUse::of_game(&moves[..15], "2", Some(&clock("40+1"))));
        assert_eq!(a.profile.iter().map(|p| p.moves).collect::<Vec<_>>(), [15, 5]);
        assert_eq!(a.clock_games, 2);
    }

    #[test]
    fn timings_are_read_from_move_comments() {
        assert_eq!(MoveTiming::from_comment("+0.35/17 0.210s"), Some(timing(210, Some(17), None)));
        assert_eq!(MoveTiming::from_comment("-M3/12 0.5s, White mates"), Some(timing(500, Some(12), None)));
        assert_eq!(MoveTiming::from_comment("? 0.010s"), Some(timing(10, None, None)));
        for c in ["book", "", "+0.35/17", "+0.35/17 fast", "+0.3/1 -1s", "+0.3/1 NaNs", "a b c"] {
            assert_eq!(MoveTiming::from_comment(c), None, "{c:?}");
        }
    }

    #[test]
    fn a_pgn_game_gives_each_engine_its_tally_and_clock() {
        let pgn = "[Event \"m\"]\n[Round \"4.1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\
                   [TimeControl \"10+0.1\"]\n\n\
                   1. e4 {book} e5 {book} 2. Nf3 {+0.20/15 0.500s} Nc6 {-0.10/14 0.250s}\n\
                   3. Bb5 {+0.25/16 9.400s} a6 {-0.12/15 0.250s, interrupted} *\n";
        let game = crate::pgn::read_first_game(pgn.as_bytes()).unwrap().unwrap();
        let [(a, ta), (b, tb)] = TimeUse::of_pgn_game(&game);
        assert_eq!((a.as_str(), b.as_str()), ("A", "B"));
        assert_eq!((ta.moves, ta.depth_sum, tb.moves), (2, 31, 2));
        // A's clock: 10 − 0.5 = 9.5, + 0.1, − 9.4 = 0.2 at its second move.
        assert!((ta.lowest_clock.unwrap() - 0.2).abs() < 1e-9, "{ta:?}");
        assert_eq!(ta.lowest_clock_round.as_deref(), Some("4.1"));
        assert!((ta.mean_end_clock().unwrap() - 0.03).abs() < 1e-9);
        // An even share at 10+0.1 is 0.35 s.
        assert!((tb.profile_means()[0].unwrap() - 0.25 / 0.35).abs() < 1e-9);
        // Without a readable clock: moves and depths, no clock figures.
        let bare = crate::pgn::read_first_game(pgn.replace("10+0.1", "40/9000:300").as_bytes()).unwrap().unwrap();
        let [(_, ta), _] = TimeUse::of_pgn_game(&bare);
        assert_eq!((ta.moves, ta.lowest_clock, ta.profile.len()), (2, None, 0));
    }

    #[test]
    fn an_engine_against_itself_has_one_tally() {
        let pgn = "[White \"X\"]\n[Black \"X\"]\n[Result \"*\"]\n\n1. e4 {+0.1/5 0.1s} e5 {+0.1/5 0.1s} *\n";
        let game = crate::pgn::read_first_game(pgn.as_bytes()).unwrap().unwrap();
        let [(x, t), (_, rest)] = TimeUse::of_pgn_game(&game);
        assert_eq!((x.as_str(), t.moves, rest.moves), ("X", 2, 0));
    }

    proptest::proptest! {
        /// Any comment text is read without a panic; a comment as the referee writes it reads
        /// back as its depth and milliseconds.
        #[test]
        fn comments_read_back(text in ".{0,40}", cp in -3000i32..3000, depth in 1u32..200, ms in 0u64..10_000_000) {
            let _ = MoveTiming::from_comment(&text);
            let comment = format!("{:+.2}/{depth} {:.3}s, some end", f64::from(cp) / 100.0, ms as f64 / 1000.0);
            let t = MoveTiming::from_comment(&comment).unwrap();
            proptest::prop_assert_eq!(t.depth, Some(depth));
            proptest::prop_assert_eq!(t.elapsed.as_millis() as i128 - i128::from(ms), 0);
        }
    }

    #[test]
    fn no_moves_no_means() {
        let t = TimeUse::default();
        assert_eq!(t.mean_seconds(), None);
        assert_eq!(t.mean_depth(), None);
        assert_eq!(t.describe(), "0 moves");
    }
}
