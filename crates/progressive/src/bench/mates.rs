//! The mate finder timed on a test set: per series length, how many mates it
//! finds and how fast (Janko 2015, §4.3.2), and how many within each time
//! (§4.3.3, Fig. 4.8).

use crate::cpu::thread_cpu_time;
use crate::error::ProgressiveError;
use crate::mate::{find_mate, Heuristic, MateContext, MateOptions};
use crate::testset::MateCase;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Times of the positions of one series length (or of all), in milliseconds.
/// A mate not found counts at the time limit (as in Janko 2015, §4.3.2).
#[derive(Clone, Debug, Default, Serialize)]
pub struct LenStats {
    /// Positions tried.
    pub positions: usize,
    /// Mates found.
    pub found: usize,
    /// Found in under a second (and within the limit).
    pub under_1s: usize,
    /// Found in under ten seconds (and within the limit).
    pub under_10s: usize,
    /// Mean time.
    pub mean_ms: f64,
    /// Median time.
    pub median_ms: f64,
    /// Longest time.
    pub max_ms: f64,
}

/// The result of [`run_mates`].
#[derive(Clone, Debug, Serialize)]
pub struct MateBench {
    /// Statistics per series length.
    pub by_series_length: BTreeMap<u32, LenStats>,
    /// Statistics over all positions.
    pub total: LenStats,
    /// Mates found within 0.01 s, 0.05 s, … 10 s: `(seconds, count)`.
    pub found_within_seconds: Vec<(f64, usize)>,
    /// The ten slowest positions: `(milliseconds, FEN)`, slowest first.
    pub slowest_ms: Vec<(f64, String)>,
    /// Mates found in under a second of thread CPU time.
    pub cpu_found_under_1s: usize,
    /// Longest thread CPU time of a found mate (ms).
    pub cpu_max_ms: f64,
    /// Positions whose CPU time could be measured (0 where the system does not report it).
    #[serde(skip)]
    pub cpu_measured: usize,
}

/// Runs the mate finder on every case; `on_progress(done, total, elapsed)`
/// is called after every 50 positions. Every mate found is checked by
/// replay: an error names the (1-based) case that failed.
pub fn run_mates(
    cases: &[MateCase],
    opts: &MateOptions,
    on_progress: &mut dyn FnMut(usize, usize, Duration),
) -> Result<MateBench, ProgressiveError> {
    let mut per: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
    let mut found_per: BTreeMap<u32, usize> = BTreeMap::new();
    let mut slowest: Vec<(f64, String)> = Vec::new();
    let mut cpu_times: Vec<f64> = Vec::new();
    let limit_ms = opts.time_limit.as_secs_f64() * 1000.0;
    let t0 = Instant::now();
    for (i, c) in cases.iter().enumerate() {
        let cpu0 = thread_cpu_time();
        let r = find_mate(&c.position, opts);
        if let (Some(a), Some(b)) = (cpu0, thread_cpu_time()) {
            cpu_times.push(if r.found() { b.saturating_sub(a).as_secs_f64() * 1000.0 } else { f64::INFINITY });
        }
        let ms = r.elapsed.as_secs_f64() * 1000.0;
        let len = c.position.series_len();
        if r.found() {
            if let Some(m) = &r.moves {
                if !c.position.play_series(m).is_ok_and(|e| e.is_checkmate()) {
                    return Err(ProgressiveError::NotAMate(i + 1));
                }
            }
            *found_per.entry(len).or_default() += 1;
            per.entry(len).or_default().push(ms);
        } else {
            per.entry(len).or_default().push(limit_ms + 0.001);
        }
        slowest.push((ms, c.position.fen()));
        if (i + 1) % 50 == 0 {
            on_progress(i + 1, cases.len(), t0.elapsed());
        }
    }
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    slowest.truncate(10);
    let mut table: BTreeMap<u32, LenStats> = BTreeMap::new();
    let mut total = LenStats::default();
    let mut all_times = Vec::new();
    for (len, times) in &per {
        let mut t = times.clone();
        t.sort_by(f64::total_cmp);
        let s = LenStats {
            positions: t.len(),
            found: found_per.get(len).copied().unwrap_or(0),
            under_1s: t.iter().filter(|&&x| x < 1000.0 && x <= limit_ms).count(),
            under_10s: t.iter().filter(|&&x| x < 10_000.0 && x <= limit_ms).count(),
            mean_ms: t.iter().sum::<f64>() / t.len() as f64,
            median_ms: t[t.len() / 2],
            max_ms: *t.last().unwrap_or(&0.0),
        };
        total.positions += s.positions;
        total.found += s.found;
        total.under_1s += s.under_1s;
        total.under_10s += s.under_10s;
        all_times.extend(t);
        table.insert(*len, s);
    }
    all_times.sort_by(f64::total_cmp);
    if !all_times.is_empty() {
        total.mean_ms = all_times.iter().sum::<f64>() / all_times.len() as f64;
        total.median_ms = all_times[all_times.len() / 2];
        total.max_ms = *all_times.last().unwrap_or(&0.0);
    }
    let thresholds = [10.0, 50.0, 100.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0, 10_000.0];
    let found_within_seconds = thresholds
        .iter()
        .map(|&t| (t / 1000.0, all_times.iter().filter(|&&x| x <= t && x <= limit_ms).count()))
        .collect();
    Ok(MateBench {
        by_series_length: table,
        total,
        found_within_seconds,
        slowest_ms: slowest,
        cpu_found_under_1s: cpu_times.iter().filter(|&&x| x < 1000.0).count(),
        cpu_max_ms: cpu_times.iter().copied().filter(|x| x.is_finite()).fold(0.0, f64::max),
        cpu_measured: cpu_times.len(),
    })
}

/// Each heuristic's mean change of cost from the root to the position
/// before the mating move, per series move (x/y of Janko 2015, §4.2): the
/// values behind [`Heuristic::improvement_per_move`].
pub fn calibrate(cases: &[MateCase]) -> Vec<(Heuristic, f64)> {
    Heuristic::ALL
        .iter()
        .map(|&h| {
            let mut sum = 0.0f64;
            for c in cases.iter().filter(|c| !c.mate.is_empty()) {
                let ctx = MateContext::new(c.position.board(), h, false, false);
                let mut p = c.position.clone();
                let root = ctx.cost(p.board(), 0, p.moves_left());
                for &m in &c.mate[..c.mate.len() - 1] {
                    p = p.play_unchecked(m);
                }
                let before = ctx.cost(p.board(), c.mate.len() as u32 - 1, 1);
                sum += ((root - before) as f64) / c.mate.len() as f64;
            }
            (h, sum / cases.len().max(1) as f64)
        })
        .collect()
}
