//! The engine's command-line flags.

use crate::scenario::Scenario;

/// How `go` picks its answer.
pub(crate) enum Play {
    /// Canned protocol answers, no chess.
    Canned,
    /// A seeded random legal move.
    Random,
    /// The first legal move.
    First,
    /// Mate, else the most valuable capture, else random.
    Greedy,
    /// Formula-driven scores from a scenario file.
    Scenario(Scenario),
}

/// Protocol misbehaviour.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Normal,
    CrashOnUci,
    Silent,
    Spam,
    IgnoreQuit,
}

impl Mode {
    const ALL: [(&'static str, Mode); 5] = [
        ("normal", Mode::Normal),
        ("crash-on-uci", Mode::CrashOnUci),
        ("silent", Mode::Silent),
        ("spam", Mode::Spam),
        ("ignore-quit", Mode::IgnoreQuit),
    ];

    /// The flag value that selects this mode.
    pub(crate) fn name(self) -> &'static str {
        Mode::ALL.iter().find(|(_, m)| *m == self).map_or("normal", |(n, _)| n)
    }
}

/// Everything the flags set.
pub(crate) struct Config {
    pub(crate) play: Play,
    pub(crate) mode: Mode,
    pub(crate) name: String,
    pub(crate) seed: u64,
    pub(crate) score: Option<i32>,
    pub(crate) crash_after: Option<u64>,
    pub(crate) hang_after: Option<u64>,
    pub(crate) illegal_after: Option<u64>,
    pub(crate) sleep_ms: u64,
    pub(crate) think_ms: u64,
}

impl Config {
    /// Parses `--flag value` pairs; a later flag overrides an earlier one.
    pub(crate) fn parse(args: &[String]) -> Result<Config, String> {
        let mut c = Config {
            play: Play::Canned,
            mode: Mode::Normal,
            name: "Fake Engine 1.0".to_owned(),
            seed: 1,
            score: None,
            crash_after: None,
            hang_after: None,
            illegal_after: None,
            sleep_ms: 0,
            think_ms: 0,
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--play" => {
                    c.play = match value.as_str() {
                        "canned" => Play::Canned,
                        "random" => Play::Random,
                        "first" => Play::First,
                        "greedy" => Play::Greedy,
                        other => return Err(format!("unknown --play {other}")),
                    }
                }
                "--scenario" => {
                    let text = std::fs::read_to_string(value).map_err(|e| format!("reading scenario {value}: {e}"))?;
                    c.play = Play::Scenario(Scenario::parse(&text));
                }
                "--mode" => {
                    c.mode = Mode::ALL
                        .iter()
                        .find(|(n, _)| n == value)
                        .map(|&(_, m)| m)
                        .ok_or_else(|| format!("unknown --mode {value}"))?
                }
                "--name" => c.name = value.clone(),
                "--seed" => c.seed = number(flag, value)?,
                "--score" => c.score = Some(number(flag, value)?),
                "--crash-after" => c.crash_after = Some(number(flag, value)?),
                "--hang-after" => c.hang_after = Some(number(flag, value)?),
                "--illegal-after" => c.illegal_after = Some(number(flag, value)?),
                "--sleep-ms" => c.sleep_ms = number(flag, value)?,
                "--think-ms" => c.think_ms = number(flag, value)?,
                other => return Err(format!("unknown flag {other}")),
            }
        }
        Ok(c)
    }
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value.parse().map_err(|_| format!("{flag} wants a number, got {value:?}"))
}
