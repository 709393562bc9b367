//! Time allocation: a soft limit (do not start another iteration after it, scaled
//! by best-move instability and falling scores) and a hard limit (abort).

use super::Limits;
use crate::options::TimeConstants;
use bastion_core::Color;
use std::time::{Duration, Instant};

/// Clock reserve in multiples of the move overhead, kept back from every allocation.
const RESERVE_PER_OVERHEAD: u64 = 4;
/// Upper bound on that reserve in milliseconds (Move Overhead goes up to 5 s).
const MAX_RESERVE_MS: u64 = 1000;

/// Time limits of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    /// When `go` arrived.
    pub start: Instant,
    /// Target time for the move, if the search is timed.
    pub soft: Option<Duration>,
    /// Time at which the search is aborted.
    pub hard: Option<Duration>,
    /// Fixed time per move (`movetime`): use all of it.
    pub fixed: bool,
}

impl TimeManager {
    /// Allocates time for a search by `side` under `limits` with the constants `tc`
    /// (which spread the clock over `tc.horizon` moves when `limits` gives no `movestogo`).
    pub fn new(start: Instant, limits: &Limits, side: Color, overhead_ms: u64, tc: &TimeConstants) -> TimeManager {
        if limits.infinite {
            return TimeManager { start, soft: None, hard: None, fixed: false };
        }
        if let Some(mt) = limits.movetime_ms {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return TimeManager { start, soft: Some(t), hard: Some(t), fixed: true };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime_ms, limits.winc_ms.unwrap_or(0)),
            Color::Black => (limits.btime_ms, limits.binc_ms.unwrap_or(0)),
        };
        // Under a time control, a clock missing for the side to move counts as empty: the
        // engine moves at once rather than searching until `stop`.
        let time = match time {
            Some(t) => t,
            None if limits.has_clock() => 0,
            None => return TimeManager { start, soft: None, hard: None, fixed: false },
        };
        // Beyond the per-move overhead, a reserve stays on the clock for a slow move or a
        // loaded machine: without it, games at 2+0.02 lived on the increment with as little
        // as 0.020 s left after a move (measured over 500 games refereed by python-chess).
        let reserve = (overhead_ms * RESERVE_PER_OVERHEAD).min(MAX_RESERVE_MS);
        let avail = time.saturating_sub(overhead_ms + reserve).max(1) as f64;
        let mtg = limits.movestogo.unwrap_or(0);
        let (soft, hard) = if mtg == 1 {
            (avail * 0.5, avail * 0.85)
        } else {
            // Front-loaded: at 10+0.1 the middlegame decides most games, so spend there
            // what would otherwise be left on the clock at the end (measured in self-play).
            // The whole increment counts: with three quarters of it, games ended with
            // about a second unused.
            let horizon = if mtg > 0 { mtg.min(40) as f64 } else { f64::from(tc.horizon.max(2)) };
            let base = avail / horizon + inc as f64;
            let pct = TimeConstants::pct;
            let soft = base.min(avail * pct(tc.soft_cap.clamp(1, 95)));
            let hard = (base * pct(tc.hard_ratio.max(100))).min(avail * pct(tc.hard_cap.clamp(1, 95)));
            (soft.min(hard), hard)
        };
        TimeManager {
            start,
            soft: Some(Duration::from_micros((soft * 1000.0) as u64)),
            hard: Some(Duration::from_micros((hard.max(1.0) * 1000.0) as u64)),
            fixed: false,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True once the hard limit has passed.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// True if, with this `factor` on the soft limit, no new iteration should start.
    pub fn soft_expired(&self, factor: f64) -> bool {
        match self.soft {
            Some(_) if self.fixed => self.hard_expired(),
            Some(s) => {
                let target = s.as_secs_f64() * factor;
                let hard = self.hard.map_or(f64::MAX, |h| h.as_secs_f64());
                self.elapsed().as_secs_f64() >= target.min(hard)
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_is_within_the_clock() {
        let start = Instant::now();
        for (time, inc, mtg) in
            [(1u64, 0u64, None), (50, 0, None), (1000, 0, Some(1)), (60_000, 1000, None), (300_000, 0, Some(40))]
        {
            let l = Limits { wtime_ms: Some(time), winc_ms: Some(inc), movestogo: mtg, ..Limits::default() };
            let tm = TimeManager::new(start, &l, Color::White, 10, &TimeConstants::DEFAULT);
            let hard = tm.hard.unwrap().as_millis() as u64;
            assert!(hard <= time.saturating_sub(10).max(1), "hard {hard} for time {time}");
            assert!(tm.soft.unwrap() <= tm.hard.unwrap());
        }
        let l = Limits { movetime_ms: Some(100), ..Limits::default() };
        let tm = TimeManager::new(start, &l, Color::Black, 10, &TimeConstants::DEFAULT);
        assert_eq!(tm.hard, Some(Duration::from_millis(90)));
        assert!(TimeManager::new(
            start,
            &Limits { infinite: true, wtime_ms: Some(5), ..Limits::default() },
            Color::White,
            0,
            &TimeConstants::DEFAULT
        )
        .hard
        .is_none());
    }

    #[test]
    fn a_low_clock_keeps_a_reserve_beyond_the_overhead() {
        let start = Instant::now();
        for time in [50u64, 100, 150, 200, 300, 500, 1000] {
            let l = Limits { wtime_ms: Some(time), winc_ms: Some(20), ..Limits::default() };
            let tm = TimeManager::new(start, &l, Color::White, 30, &TimeConstants::DEFAULT);
            let hard = tm.hard.unwrap().as_micros() as f64 / 1000.0;
            let left = time as f64 - hard;
            assert!(left >= (30 + 4 * 30).min(time) as f64 - 1.0, "time {time}: hard {hard} leaves {left}");
        }
        // With no overhead the user asked for none: the whole clock is available.
        let l = Limits { wtime_ms: Some(1000), ..Limits::default() };
        let tm = TimeManager::new(start, &l, Color::White, 0, &TimeConstants::DEFAULT);
        assert_eq!(tm.soft, Some(Duration::from_millis(50)));
        // A large overhead caps the reserve at a second.
        let l = Limits { wtime_ms: Some(60_000), ..Limits::default() };
        let tm = TimeManager::new(start, &l, Color::White, 2000, &TimeConstants::DEFAULT);
        assert_eq!(tm.soft, Some(Duration::from_millis(57_000 / 20)));
    }

    #[test]
    fn a_shorter_horizon_spends_more_now_and_movestogo_overrides_it() {
        let start = Instant::now();
        let short_horizon = TimeConstants { horizon: 12, ..TimeConstants::DEFAULT };
        let l = Limits { btime_ms: Some(10_000), binc_ms: Some(100), ..Limits::default() };
        let long = TimeManager::new(start, &l, Color::Black, 30, &TimeConstants::DEFAULT);
        let short = TimeManager::new(start, &l, Color::Black, 30, &short_horizon);
        assert!(short.soft > long.soft && short.hard > long.hard);
        let l = Limits { movestogo: Some(10), ..l };
        assert_eq!(
            TimeManager::new(start, &l, Color::Black, 30, &TimeConstants::DEFAULT).soft,
            TimeManager::new(start, &l, Color::Black, 30, &short_horizon).soft
        );
    }

    #[test]
    fn every_setting_of_the_constants_keeps_the_limits_inside_the_clock() {
        let start = Instant::now();
        let extreme = [
            TimeConstants { horizon: 2, soft_cap: 90, hard_ratio: 2000, hard_cap: 95, ..TimeConstants::DEFAULT },
            TimeConstants { horizon: 100, soft_cap: 5, hard_ratio: 100, hard_cap: 10, ..TimeConstants::DEFAULT },
            // Out of the options' ranges (a caller of the library may pass anything).
            TimeConstants { horizon: -5, soft_cap: 200, hard_ratio: 0, hard_cap: 300, ..TimeConstants::DEFAULT },
        ];
        for tc in &extreme {
            for (time, inc) in [(1u64, 0u64), (200, 10), (10_000, 100), (600_000, 0)] {
                let l = Limits { wtime_ms: Some(time), winc_ms: Some(inc), ..Limits::default() };
                let tm = TimeManager::new(start, &l, Color::White, 10, tc);
                let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
                assert!(soft <= hard, "{tc:?} at {time}: soft {soft:?} over hard {hard:?}");
                assert!(hard.as_millis() as u64 <= time.saturating_sub(10).max(1), "{tc:?} at {time}: hard {hard:?}");
            }
        }
        // The caps bind: at most 90 % and 95 % of what is left after overhead and reserve.
        let l = Limits { wtime_ms: Some(10_000), winc_ms: Some(5_000), ..Limits::default() };
        let tm = TimeManager::new(start, &l, Color::White, 10, &extreme[0]);
        let avail = 10_000.0 - 10.0 - 40.0;
        assert_eq!(tm.soft, Some(Duration::from_micros((avail * 0.9 * 1000.0) as u64)));
        assert_eq!(tm.hard, Some(Duration::from_micros((avail * 0.95 * 1000.0) as u64)));
    }

    #[test]
    fn a_clock_missing_for_the_side_to_move_counts_as_empty() {
        let start = Instant::now();
        for l in [
            Limits { wtime_ms: Some(60_000), ..Limits::default() },
            Limits { wtime_ms: Some(60_000), winc_ms: Some(100), binc_ms: Some(100), ..Limits::default() },
        ] {
            let tm = TimeManager::new(start, &l, Color::Black, 10, &TimeConstants::DEFAULT);
            assert_eq!(tm.hard, Some(Duration::from_millis(1)), "{l:?}");
        }
        // As in Stockfish, increments or `movestogo` without any clock do not start time
        // management (`go depth 5 winc 100` searches to depth 5).
        for l in [
            Limits { winc_ms: Some(100), binc_ms: Some(100), ..Limits::default() },
            Limits { movestogo: Some(10), depth: Some(5), ..Limits::default() },
        ] {
            assert_eq!(TimeManager::new(start, &l, Color::Black, 10, &TimeConstants::DEFAULT).hard, None, "{l:?}");
        }
        // No limit at all (a bare `go`): no time limit either.
        assert_eq!(TimeManager::new(start, &Limits::default(), Color::Black, 10, &TimeConstants::DEFAULT).hard, None);
    }
}
