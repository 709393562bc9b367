//! SPSA tuning of an engine's numeric UCI options in game pairs against itself, as fishtest
//! and OpenBench tune search parameters: every parameter moves at once.
//!
//! Simultaneous perturbation stochastic approximation (Spall, "Multivariate stochastic
//! approximation using a simultaneous perturbation gradient approximation", 1992): at
//! iteration `k` every parameter is shifted by `±c_k` with a random sign `δ_i`, the engine with
//! `θ + c_k·δ` plays a game pair (one opening, both colours) against the engine with
//! `θ − c_k·δ`, and each parameter moves by `a_k · (W − L) / (c_k·δ_i)` — toward the side that
//! won. The gains follow Spall's schedule, `c_k = c / (k+1)^γ` and `a_k = a / (A + k + 1)^α`
//! with `α = 0.602`, `γ = 0.101`, `A` a tenth of the iterations; as in OpenBench, `c` and `a`
//! come from each parameter's step and learning rate at the last iteration (`c_end`, `r_end`,
//! `a_end = r_end · c_end²`).
//!
//! A run's state (iterations done, current values, the pairs' W/D/L) is written after every
//! batch of pairs through a temporary file, so an interrupted run resumes where it stopped;
//! the perturbation of iteration `k` depends only on the seed and `k`, so a resumed run
//! perturbs as an uninterrupted one would.

use crate::openings::Opening;
use crate::referee::{play_game, EngineConfig, GameEnd, Player, RefereeConfig};
use bastion_core::rng::Rng;
use bastion_core::Color;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Spall's decay exponent of the learning rate.
pub const ALPHA: f64 = 0.602;
/// Spall's decay exponent of the perturbation.
pub const GAMMA: f64 = 0.101;
/// The stability constant `A` as a share of the iterations.
pub const A_SHARE: f64 = 0.1;

/// One tuned option.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    /// The UCI option's name.
    pub name: String,
    /// Whether the engine takes whole numbers (values sent rounded); else decimals.
    pub integer: bool,
    /// Current value.
    pub value: f64,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// Perturbation at the last iteration.
    pub c_end: f64,
    /// Learning rate at the last iteration (`a_end / c_end²`).
    pub r_end: f64,
}

impl SpsaParam {
    /// Parses a line in OpenBench's format: `name, int|float, value, min, max, c_end, r_end`.
    pub fn parse(line: &str) -> Result<SpsaParam, String> {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != 7 {
            return Err(format!("{line:?}: expected `name, int|float, value, min, max, c_end, r_end`"));
        }
        let integer = match f[1].to_ascii_lowercase().as_str() {
            "int" => true,
            "float" => false,
            other => return Err(format!("{line:?}: type {other:?} is not int or float")),
        };
        let num = |i: usize, what: &str| {
            f[i].parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{line:?}: {what} {:?} is not a number", f[i]))
        };
        let p = SpsaParam {
            name: f[0].to_string(),
            integer,
            value: num(2, "value")?,
            min: num(3, "min")?,
            max: num(4, "max")?,
            c_end: num(5, "c_end")?,
            r_end: num(6, "r_end")?,
        };
        if p.name.is_empty() || p.name.contains(char::is_whitespace) {
            return Err(format!("{line:?}: the option name must be one word"));
        }
        if !(p.min <= p.value && p.value <= p.max) {
            return Err(format!("{line:?}: value {} is outside {}..={}", p.value, p.min, p.max));
        }
        if p.c_end <= 0.0 || p.r_end <= 0.0 {
            return Err(format!("{line:?}: c_end and r_end must be positive"));
        }
        Ok(p)
    }

    /// Parses a parameter file: one [`SpsaParam::parse`] line each; blank lines and lines
    /// starting with `#` are skipped. Names must differ.
    pub fn parse_all(text: &str) -> Result<Vec<SpsaParam>, String> {
        let mut params: Vec<SpsaParam> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let p = SpsaParam::parse(line).map_err(|e| format!("line {}: {e}", i + 1))?;
            if params.iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
                return Err(format!("line {}: {} is given twice", i + 1, p.name));
            }
            params.push(p);
        }
        if params.is_empty() {
            return Err("no parameters".into());
        }
        Ok(params)
    }

    /// The value as the engine is sent it.
    pub fn format(&self, v: f64) -> String {
        if self.integer {
            format!("{}", v.round() as i64)
        } else {
            format!("{v}")
        }
    }

    /// The line of a parameter file that holds this parameter now.
    pub fn to_line(&self) -> String {
        let kind = if self.integer { "int" } else { "float" };
        format!(
            "{}, {kind}, {}, {}, {}, {}, {}",
            self.name,
            self.format(self.value),
            self.min,
            self.max,
            self.c_end,
            self.r_end
        )
    }
}

/// The perturbation `c_k` and learning rate `a_k` of iteration `k` (from 0) of `iterations`.
pub fn gains(p: &SpsaParam, k: u64, iterations: u64) -> (f64, f64) {
    let n = iterations.max(1) as f64;
    let big_a = A_SHARE * n;
    let c = p.c_end * n.powf(GAMMA);
    let a = p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA);
    let k = k as f64;
    (c / (k + 1.0).powf(GAMMA), a / (big_a + k + 1.0).powf(ALPHA))
}

/// The signs `δ` of iteration `k`: fixed by the seed and `k` alone.
pub fn signs(seed: u64, k: u64, n: usize) -> Vec<f64> {
    let mut rng = Rng::new(seed ^ k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (0..n).map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 }).collect()
}

/// A tuning run.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The engine, with any fixed options; the tuned options are set after them.
    pub engine: EngineConfig,
    /// The tuned options and their starting values.
    pub params: Vec<SpsaParam>,
    /// Iterations (game pairs) in the whole run; the gains are scheduled over this many.
    pub iterations: u64,
    /// Time control, margins and adjudication of the games.
    pub referee: RefereeConfig,
    /// Openings, used in order and cycled (iteration `k` plays opening `k mod n`).
    pub openings: Vec<Opening>,
    /// Game pairs played at once; the values move after each batch.
    pub concurrency: usize,
    /// Seed of the perturbation signs.
    pub seed: u64,
    /// The state file: read to resume, written after every batch.
    pub state: Option<PathBuf>,
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaState {
    /// Iterations done.
    pub iterations_done: u64,
    /// Iterations in the whole run.
    pub iterations: u64,
    /// The seed of the signs.
    pub seed: u64,
    /// The parameters with their current values.
    pub params: Vec<SpsaParam>,
    /// Games won, drawn and lost by the `θ + c·δ` side.
    pub wdl: [u64; 3],
}

impl SpsaState {
    /// Current values as `bastion match` engine options: `option.Name=value …`.
    pub fn options(&self) -> String {
        self.params.iter().map(|p| format!("option.{}={}", p.name, p.format(p.value))).collect::<Vec<_>>().join(" ")
    }
}

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    /// A bad setting, or a state file of another run.
    #[error("{0}")]
    Config(String),
    /// The state file could not be read or written.
    #[error("{0}")]
    Io(String),
    /// The engine failed in both games of a pair: tuning on would tune nothing.
    #[error("the engine failed in both games of pair {pair}: {reason}")]
    Engine {
        /// The iteration.
        pair: u64,
        /// What the referee said.
        reason: String,
    },
}

/// The state to start from: the state file when it holds this run (same parameter names,
/// iterations and seed), else the configured values.
fn initial_state(cfg: &SpsaConfig) -> Result<SpsaState, SpsaError> {
    let fresh = SpsaState {
        iterations_done: 0,
        iterations: cfg.iterations,
        seed: cfg.seed,
        params: cfg.params.clone(),
        wdl: [0; 3],
    };
    let Some(path) = &cfg.state else { return Ok(fresh) };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(fresh),
        Err(e) => return Err(SpsaError::Io(format!("{}: {e}", path.display()))),
    };
    let state: SpsaState = serde_json::from_str(&text)
        .map_err(|e| SpsaError::Config(format!("{}: not an SPSA state file: {e}", path.display())))?;
    let names = |ps: &[SpsaParam]| ps.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
    if names(&state.params) != names(&cfg.params) || state.iterations != cfg.iterations || state.seed != cfg.seed {
        return Err(SpsaError::Config(format!(
            "{} belongs to another run (parameters, iterations or seed differ): move it away to start afresh",
            path.display()
        )));
    }
    Ok(state)
}

fn save(path: &std::path::Path, state: &SpsaState) -> Result<(), SpsaError> {
    let text = serde_json::to_string_pretty(state).map_err(|e| SpsaError::Io(e.to_string()))?;
    bastion_core::io::write_atomically(path, "partial", text.as_bytes())
        .map_err(|e| SpsaError::Io(format!("{}: {e}", path.display())))
}

/// What one pair gave: the `+` side's wins, draws and losses, and a failure when the engine
/// failed in both games.
struct PairResult {
    wdl: [u64; 3],
    failed: Option<String>,
    interrupted: bool,
}

/// One iteration's perturbation: its signs and the values of the two sides.
struct Plan {
    k: u64,
    delta: Vec<f64>,
    plus: Vec<f64>,
    minus: Vec<f64>,
}

impl Plan {
    fn new(cfg: &SpsaConfig, state: &SpsaState, k: u64) -> Plan {
        let delta = signs(cfg.seed, k, state.params.len());
        let shift = |sign: f64| {
            state
                .params
                .iter()
                .zip(&delta)
                .map(|(p, d)| (p.value + sign * gains(p, k, cfg.iterations).0 * d).clamp(p.min, p.max))
                .collect::<Vec<f64>>()
        };
        let (plus, minus) = (shift(1.0), shift(-1.0));
        Plan { k, delta, plus, minus }
    }
}

/// The engine with the tuned options set to `values`.
fn engine_with(cfg: &SpsaConfig, name: &str, values: &[f64]) -> EngineConfig {
    let mut e = cfg.engine.clone();
    e.name = name.to_string();
    for (p, &v) in cfg.params.iter().zip(values) {
        e.options.retain(|(k, _)| !k.eq_ignore_ascii_case(&p.name));
        e.options.push((p.name.clone(), p.format(v)));
    }
    e
}

fn play_pair(cfg: &SpsaConfig, k: u64, plus: &[f64], minus: &[f64], stop: &AtomicBool) -> PairResult {
    let opening = &cfg.openings[(k % cfg.openings.len() as u64) as usize];
    let mut p = Player::new(engine_with(cfg, "plus", plus));
    let mut m = Player::new(engine_with(cfg, "minus", minus));
    let (mut wdl, mut failures, mut interrupted) = ([0u64; 3], Vec::new(), false);
    for plus_white in [true, false] {
        let players = if plus_white { [&mut p, &mut m] } else { [&mut m, &mut p] };
        let record = play_game(players, opening, &cfg.referee, &|| stop.load(Ordering::Relaxed));
        if record.end == GameEnd::Interrupted {
            interrupted = true;
            break;
        }
        if matches!(record.end, GameEnd::Crash { .. }) {
            failures.push(record.reason.clone());
        }
        let plus_color = if plus_white { Color::White } else { Color::Black };
        match record.winner {
            Some(c) if c == plus_color => wdl[0] += 1,
            None => wdl[1] += 1,
            Some(_) => wdl[2] += 1,
        }
    }
    let failed = (failures.len() == 2).then(|| failures.join("; "));
    PairResult { wdl, failed, interrupted }
}

/// Runs (or resumes) the tuning; `progress` sees the state after every batch. Returns the
/// state reached: all iterations done, or fewer when `stop` was set (the batch in progress
/// is dropped, not counted).
pub fn run_spsa(
    cfg: &SpsaConfig,
    stop: Arc<AtomicBool>,
    mut progress: impl FnMut(&SpsaState),
) -> Result<SpsaState, SpsaError> {
    if cfg.openings.is_empty() {
        return Err(SpsaError::Config("no openings".into()));
    }
    if cfg.params.is_empty() || cfg.iterations == 0 {
        return Err(SpsaError::Config("nothing to tune: give parameters and at least one iteration".into()));
    }
    let mut state = initial_state(cfg)?;
    let concurrency = cfg.concurrency.max(1) as u64;
    while state.iterations_done < cfg.iterations && !stop.load(Ordering::Relaxed) {
        let batch: Vec<u64> =
            (state.iterations_done..(state.iterations_done + concurrency).min(cfg.iterations)).collect();
        // Every pair of the batch is perturbed around the same values.
        let plans: Vec<Plan> = batch.iter().map(|&k| Plan::new(cfg, &state, k)).collect();
        let results: Vec<PairResult> = std::thread::scope(|s| {
            let handles: Vec<_> =
                plans.iter().map(|p| s.spawn(|| play_pair(cfg, p.k, &p.plus, &p.minus, &stop))).collect();
            handles.into_iter().map(|h| h.join().expect("a pair's thread does not panic")).collect()
        });
        if results.iter().any(|r| r.interrupted) {
            break;
        }
        if let Some((k, r)) = plans.iter().zip(&results).find_map(|(p, r)| r.failed.clone().map(|r| (p.k, r))) {
            return Err(SpsaError::Engine { pair: k, reason: r });
        }
        for (plan, r) in plans.iter().zip(&results) {
            let score = r.wdl[0] as f64 - r.wdl[2] as f64;
            for (p, d) in state.params.iter_mut().zip(&plan.delta) {
                let (c, a) = gains(p, plan.k, cfg.iterations);
                p.value = (p.value + a * score / (c * d)).clamp(p.min, p.max);
            }
            for i in 0..3 {
                state.wdl[i] += r.wdl[i];
            }
        }
        state.iterations_done += batch.len() as u64;
        if let Some(path) = &cfg.state {
            save(path, &state)?;
        }
        progress(&state);
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_openbench_lines_and_refuses_bad_ones() {
        let p = SpsaParam::parse("RazorBase, int, 200, 0, 1000, 20, 0.002").unwrap();
        assert_eq!((p.name.as_str(), p.integer, p.value, p.min, p.max), ("RazorBase", true, 200.0, 0.0, 1000.0));
        assert_eq!(p.to_line(), "RazorBase, int, 200, 0, 1000, 20, 0.002");
        assert!(!SpsaParam::parse("Scale, float, 0.5, 0, 1, 0.05, 0.002").unwrap().integer);
        for bad in [
            "RazorBase, int, 200, 0, 1000, 20",
            "RazorBase, long, 200, 0, 1000, 20, 0.002",
            "RazorBase, int, x, 0, 1000, 20, 0.002",
            "RazorBase, int, 2000, 0, 1000, 20, 0.002",
            "RazorBase, int, 200, 0, 1000, 0, 0.002",
            "Razor Base, int, 200, 0, 1000, 20, 0.002",
            "RazorBase, int, NaN, 0, 1000, 20, 0.002",
        ] {
            assert!(SpsaParam::parse(bad).is_err(), "{bad}");
        }
        let text = "# margins\nA, int, 1, 0, 5, 1, 0.002\n\nB, float, 0.5, 0, 1, 0.1, 0.002\n";
        assert_eq!(SpsaParam::parse_all(text).unwrap().len(), 2);
        assert!(SpsaParam::parse_all("A, int, 1, 0, 5, 1, 0.002\na, int, 1, 0, 5, 1, 0.002").is_err());
        assert!(SpsaParam::parse_all("# nothing\n").is_err());
    }

    #[test]
    fn the_gains_end_at_c_end_and_a_end() {
        let p = SpsaParam::parse("X, int, 100, 0, 200, 10, 0.002").unwrap();
        let n = 1000;
        let (c_last, a_last) = gains(&p, n - 1, n);
        assert!((c_last - 10.0).abs() < 1e-9, "{c_last}");
        assert!((a_last - 0.002 * 100.0).abs() < 1e-9, "{a_last}");
        let (c0, a0) = gains(&p, 0, n);
        assert!(c0 > c_last && a0 > a_last, "both decay");
    }

    #[test]
    fn signs_depend_on_seed_and_iteration_only() {
        assert_eq!(signs(7, 3, 13), signs(7, 3, 13));
        assert_ne!(signs(7, 3, 64), signs(7, 4, 64));
        assert_ne!(signs(7, 3, 64), signs(8, 3, 64));
        let s = signs(1, 0, 10_000);
        let plus = s.iter().filter(|&&d| d > 0.0).count();
        assert!((4_800..5_200).contains(&plus), "{plus}");
    }
}
