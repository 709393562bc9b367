//! Time controls as cutechess-cli writes them (`10+0.1`, `40/60+0.5`) and as a match plays
//! them: a clock, a fixed time, nodes or depth a move.

use std::fmt;
use std::time::Duration;

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `base` for the game (or for `moves` moves), plus `increment` per move.
    Clock {
        /// Time on each clock at the start.
        base: Duration,
        /// Added after each move.
        increment: Duration,
        /// Moves per period (`40/60+0`), when the clock is refilled.
        moves: Option<u32>,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed number of nodes per move.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
}

impl TimeControl {
    /// Parses cutechess-style `10+0.1`, `40/60+0.5`, `60` (seconds).
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("bad time control {text:?}; expected e.g. 10+0.1 or 40/60+0.5 (seconds)");
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (Some(m.trim().parse::<u32>().map_err(|_| bad())?), r),
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |s: &str| -> Result<Duration, String> {
            let v: f64 = s.trim().parse().map_err(|_| bad())?;
            if !(0.0..=1e7).contains(&v) {
                return Err(bad());
            }
            Ok(Duration::from_secs_f64(v))
        };
        let base = secs(base)?;
        if base.is_zero() || moves == Some(0) {
            return Err(bad());
        }
        Ok(TimeControl::Clock { base, increment: secs(inc)?, moves })
    }

    /// The mover's clock after a move that left `left` on it, the mover's `moves_made`-th move
    /// on this control: the increment added and, at the end of each period of a `moves/base`
    /// control, the base again. The referee keeps its clocks so, and PGN readers replay them so.
    pub fn clock_after_move(&self, left: Duration, moves_made: u32) -> Duration {
        match *self {
            TimeControl::Clock { base, increment, moves } => {
                let refill = moves.is_some_and(|p| p > 0 && moves_made % p == 0);
                left + increment + if refill { base } else { Duration::ZERO }
            }
            _ => left,
        }
    }

    /// The PGN `TimeControl` tag value (`10+0.1`, `40/60`, or `-` for non-clock limits).
    pub fn pgn_tag(&self) -> String {
        match *self {
            TimeControl::Clock { base, increment, moves } => {
                let mut s = String::new();
                if let Some(m) = moves {
                    s.push_str(&format!("{m}/"));
                }
                s.push_str(&trim_float(base.as_secs_f64()));
                if !increment.is_zero() {
                    s.push_str(&format!("+{}", trim_float(increment.as_secs_f64())));
                }
                s
            }
            TimeControl::MoveTime(d) => format!("{}/move", trim_float(d.as_secs_f64())),
            _ => "-".into(),
        }
    }
}

fn trim_float(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Nodes(n) => write!(f, "{n} nodes/move"),
            TimeControl::Depth(d) => write!(f, "depth {d}/move"),
            _ => f.write_str(&self.pgn_tag()),
        }
    }
}
