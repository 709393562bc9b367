//! The computer player's settings and the option language that writes them:
//! `key=value` pairs separated by commas, e.g. `depth=0,noise=0.5,book=off`.
//! The empty text gives the defaults, the same ones the web app plays with.

use crate::duration::parse_duration;
use crate::error::ProgressiveError;
use crate::eval::EvalOptions;
use crate::mate::MateOptions;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Score noise (pawns) of [`PlayerOptions::varied`]: enough that self-play
/// games between the same settings do not all repeat.
pub const VARIED_NOISE: f32 = 0.3;

/// Settings of the computer player.
#[derive(Clone, Debug)]
pub struct PlayerOptions {
    /// Minimax depth in turns over the A* candidates (0, 1 or 2; depth 1 is best in Janko 2015, §5.3).
    pub depth: u32,
    /// Time for one turn.
    pub time: Duration,
    /// The mate finder used in phases 1 and 3 (each phase sets its time limit from `time`).
    pub mate: MateOptions,
    /// The evaluation terms.
    pub eval: EvalOptions,
    /// Use the opening book for the first two turns.
    pub book: bool,
    /// Include the dubious first moves (1.d3, 1.e3, 1.f3, 1.h4) of Janko 2015, §6.1, in the book.
    pub wide_book: bool,
    /// Own series expanded by minimax at the root (50 in Janko 2015, §5.2.3).
    pub width: usize,
    /// Random noise added to series scores (pawns), for varied self-play.
    pub noise: f32,
    /// Seed of the random choices.
    pub seed: u64,
    /// Skip phase 1 (used to collect mate positions from continuing games).
    pub skip_mate_search: bool,
    /// Run phase 3, mate prevention (off only for deliberately weak players).
    pub prevent_mates: bool,
    /// Against a bare king (and as the bare king against one or two pieces)
    /// play by the placement planner of [`crate::endgame`] instead of the
    /// series search (needs `eval.endgame`).
    pub planner: bool,
    /// Set by another thread to end the turn's search at once: the player then
    /// returns the best series it has (at least one legal series), as a client
    /// that goes away ends its job.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for PlayerOptions {
    fn default() -> Self {
        PlayerOptions {
            depth: 1,
            time: Duration::from_secs(5),
            mate: MateOptions::default(),
            eval: EvalOptions::default(),
            book: true,
            wide_book: false,
            width: 50,
            noise: 0.0,
            seed: 1,
            skip_mate_search: false,
            prevent_mates: true,
            planner: true,
            stop: None,
        }
    }
}

impl PlayerOptions {
    /// The defaults with `time` per turn.
    pub fn with_time(time: Duration) -> PlayerOptions {
        PlayerOptions { time, mate: MateOptions::with_time(time), ..PlayerOptions::default() }
    }

    /// True once [`PlayerOptions::stop`] is set.
    pub fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The mate finder's settings for one phase of a turn: [`PlayerOptions::mate`]
    /// with `time` and this player's stop flag.
    pub(crate) fn mate_for(&self, time: Duration) -> MateOptions {
        MateOptions { time_limit: time, stop: self.stop.clone(), ..self.mate.clone() }
    }

    /// The defaults with `time` per turn, random seed `seed` and
    /// [`VARIED_NOISE`]: where self-play and terminal games start before
    /// their option text is applied.
    pub fn varied(time: Duration, seed: u64) -> PlayerOptions {
        PlayerOptions { seed, noise: VARIED_NOISE, ..PlayerOptions::with_time(time) }
    }

    /// Applies option text (`key=value,…`) on top of these settings. Keys:
    /// `depth` (0..=3), `time`, `heuristic`, `variant`, `promotion`, `pin`,
    /// `eval-promotion`, `king-safety`, `endgame`, `book`, `wide-book`,
    /// `width`, `noise`, `prevent-mates`, `planner`; switches take
    /// on/off, true/false, 1/0 or yes/no.
    pub fn apply(&mut self, spec: &str) -> Result<(), ProgressiveError> {
        let bad = ProgressiveError::BadOption;
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item.split_once('=').ok_or_else(|| bad(format!("bad player option {item:?} (key=value)")))?;
            let on = || match v {
                "on" | "true" | "1" | "yes" => Ok(true),
                "off" | "false" | "0" | "no" => Ok(false),
                _ => Err(bad(format!("{k} takes on/off, found {v:?}"))),
            };
            let number = |e: &dyn std::fmt::Display| bad(format!("{k}: {e}"));
            match k {
                "depth" => self.depth = v.parse().map_err(|e| number(&e))?,
                "time" => self.time = parse_duration(v)?,
                "heuristic" => self.mate.heuristic = v.parse()?,
                "variant" => self.mate.variant = v.parse()?,
                "promotion" => self.mate.promotion = on()?,
                "pin" => self.mate.pin = on()?,
                "eval-promotion" => self.eval.promotion = on()?,
                "king-safety" => self.eval.king_safety = on()?,
                "endgame" => self.eval.endgame = on()?,
                "book" => self.book = on()?,
                "wide-book" => self.wide_book = on()?,
                "width" => self.width = v.parse().map_err(|e| number(&e))?,
                "noise" => self.noise = v.parse().map_err(|e| number(&e))?,
                "prevent-mates" => self.prevent_mates = on()?,
                "planner" => self.planner = on()?,
                _ => return Err(bad(format!("unknown player option {k:?}"))),
            }
        }
        if self.depth > 3 {
            return Err(bad(format!("depth {} is too deep (0..=3)", self.depth)));
        }
        Ok(())
    }
}

impl FromStr for PlayerOptions {
    type Err = ProgressiveError;

    /// The defaults with the option text applied (see [`PlayerOptions::apply`]).
    fn from_str(spec: &str) -> Result<PlayerOptions, ProgressiveError> {
        let mut p = PlayerOptions::default();
        p.apply(spec)?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::Heuristic;

    #[test]
    fn empty_text_gives_the_defaults() {
        let p: PlayerOptions = "".parse().unwrap();
        let d = PlayerOptions::default();
        assert_eq!((p.depth, p.time, p.noise, p.book, p.width), (d.depth, d.time, d.noise, d.book, d.width));
    }

    #[test]
    fn keys_set_their_fields() {
        let mut p = PlayerOptions::varied(Duration::from_secs(1), 7);
        p.apply("depth=0, time=250ms,heuristic=manhattan,book=off,noise=0.5,king-safety=no").unwrap();
        assert_eq!(p.depth, 0);
        assert_eq!(p.time, Duration::from_millis(250));
        assert_eq!(p.mate.heuristic, Heuristic::Manhattan);
        assert!(!p.book && !p.eval.king_safety);
        assert_eq!((p.noise, p.seed), (0.5, 7));
    }

    #[test]
    fn bad_text_is_an_error() {
        for (spec, msg) in [
            ("foo=1", "unknown player option \"foo\""),
            ("depth=9", "depth 9 is too deep (0..=3)"),
            ("book=maybe", "book takes on/off, found \"maybe\""),
            ("noise=x", "noise: invalid float literal"),
            ("nokey", "bad player option \"nokey\" (key=value)"),
            ("depth=", "depth: cannot parse integer from empty string"),
            ("time=abc", "bad time \"abc\" (e.g. 2, 2s, 500ms)"),
        ] {
            assert_eq!(spec.parse::<PlayerOptions>().unwrap_err().to_string(), msg);
        }
    }
}
