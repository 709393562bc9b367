//! `bastion progressive gen-mates` and `bench-mates`: the mate test set,
//! collected from self-play games and timed per series length.

use super::{read, time_arg, MateSearchArgs};
use crate::plural::count;
use anyhow::{Context, Result};
use bastion_progressive::bench::{calibrate, run_mates, MateBench};
use bastion_progressive::testset::{self, GenerateConfig};
use bastion_progressive::{Heuristic, MateOptions, Rules, Variant};
use clap::Args;
use serde::Serialize;
use std::io::Write;

#[derive(Args, Debug)]
pub(super) struct GenArgs {
    /// Test-set file to create or extend (resumes: existing lines count).
    file: String,
    /// Positions wanted per series length.
    #[arg(long, default_value_t = 100)]
    per_length: usize,
    /// Shortest series length collected.
    #[arg(long, default_value_t = 4)]
    min_len: u32,
    /// Longest series length collected.
    #[arg(long, default_value_t = 12)]
    max_len: u32,
    /// Time of the mate scan at each turn.
    #[arg(long, default_value = "3")]
    scan_time: String,
    /// Time per turn of the self-play players.
    #[arg(long, default_value = "0.2")]
    player_time: String,
    /// Stop after this many games.
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Probability that a player who has a mate plays on without it (so games continue).
    #[arg(long, default_value_t = 0.85)]
    skip: f32,
    /// Probability that a turn before the 6th is played without mate prevention
    /// (a weaker player), so that early mates (series of 4 and 5) occur.
    #[arg(long, default_value_t = 0.5)]
    weak_opening: f32,
    /// Probability that a turn before the 6th is played by uniformly random legal
    /// moves (a beginner), so that mates in series of 4 and 5 occur at all.
    #[arg(long, default_value_t = 0.25)]
    random_opening: f32,
    /// Random noise of the self-play players' series scores (pawns), for varied games.
    #[arg(long, default_value_t = 2.0)]
    noise: f32,
}

pub(super) fn run_gen(a: GenArgs) -> Result<()> {
    let config = GenerateConfig {
        per_length: a.per_length,
        min_len: a.min_len,
        max_len: a.max_len,
        scan_time: time_arg(&a.scan_time)?,
        player_time: time_arg(&a.player_time)?,
        games: a.games,
        skip: a.skip,
        weak_opening: a.weak_opening,
        random_opening: a.random_opening,
        noise: a.noise,
    };
    // A file that does not exist yet starts empty; any other read failure is an error, so
    // that a resumed run never appends to a file it could not read.
    let path = std::path::Path::new(&a.file);
    let existing = if path.exists() {
        bastion_core::io::read_to_string_bounded(path, bastion_core::io::TEXT_LIMIT)
            .map_err(bastion_core::io::BoundedReadError::into_io)
            .with_context(|| format!("reading {}", a.file))?
    } else {
        String::new()
    };
    let cases = testset::load(&existing, Rules::Italian).with_context(|| format!("reading {}", a.file))?;
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&a.file)?;
    let seed = testset::resume_seed(cases.len(), existing.len());
    let on_case = |case: &testset::MateCase| -> Result<()> {
        writeln!(file, "{}", case.line())?;
        file.flush()?;
        Ok(())
    };
    testset::generate(&config, &cases, seed, on_case, |p| {
        let counts: Vec<String> =
            (a.min_len..=a.max_len).map(|l| format!("{l}:{}", p.counts.get(&l).copied().unwrap_or(0))).collect();
        let secs = p.elapsed.as_secs_f64();
        let turns = count(p.turns as u64, "turn", "turns");
        eprintln!("game {} done ({turns}) [{secs:.0}s]  {}", p.game + 1, counts.join(" "));
    })
}

#[derive(Args, Debug)]
pub(super) struct BenchArgs {
    /// Test-set file (`FEN;moves` lines).
    file: String,
    /// Time limit per position.
    #[arg(long, default_value = "10")]
    time: String,
    #[command(flatten)]
    search: MateSearchArgs,
    /// Only the first N positions of each series length.
    #[arg(long)]
    per_length: Option<usize>,
    /// Override the A* path cost per move (x/y) for tuning.
    #[arg(long)]
    g: Option<f32>,
    /// Print the heuristics' average change from root to mate per move (the x/y of Janko 2015, §4.2).
    #[arg(long)]
    calibrate: bool,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub(super) fn run_bench(a: BenchArgs) -> Result<()> {
    let mut cases = testset::load(&read(&a.file)?, Rules::Italian)?;
    if let Some(n) = a.per_length {
        cases = testset::first_per_length(cases, n);
    }
    if a.calibrate {
        println!("heuristic      mean cost change root→mate per series move (x/y)");
        for (h, x) in calibrate(&cases) {
            println!("{:<14} {x:.3}", format!("{h:?}"));
        }
        return Ok(());
    }
    let opts = MateOptions { g_per_move: a.g, ..a.search.options(time_arg(&a.time)?)? };
    let b = run_mates(&cases, &opts, &mut |done, total, elapsed| {
        eprintln!("{done}/{total} [{:.0}s]", elapsed.as_secs_f64());
    })?;
    if a.json {
        #[derive(Serialize)]
        struct R<'a> {
            file: &'a str,
            heuristic: Heuristic,
            variant: Variant,
            promotion: bool,
            pin: bool,
            time_limit_s: f64,
            #[serde(flatten)]
            bench: &'a MateBench,
        }
        let r = R {
            file: &a.file,
            heuristic: opts.heuristic,
            variant: opts.variant,
            promotion: opts.promotion,
            pin: opts.pin,
            time_limit_s: opts.time_limit.as_secs_f64(),
            bench: &b,
        };
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    println!(
        "{:?} / {:?}, promotion {}, pin {}, limit {:?}",
        opts.heuristic, opts.variant, opts.promotion, opts.pin, opts.time_limit
    );
    println!("len  n    found  <1s   <10s  mean ms  median ms  max ms");
    let row = |label: &str, s: &bastion_progressive::bench::LenStats| {
        println!(
            "{label:<4} {:<4} {:<6} {:<5} {:<5} {:<8.1} {:<10.1} {:.1}",
            s.positions, s.found, s.under_1s, s.under_10s, s.mean_ms, s.median_ms, s.max_ms
        );
    };
    for (len, s) in &b.by_series_length {
        row(&len.to_string(), s);
    }
    row("all", &b.total);
    let cum: Vec<String> = b.found_within_seconds.iter().map(|(t, n)| format!("{t}s:{n}")).collect();
    println!("found within: {}", cum.join(" "));
    for (ms, fen) in b.slowest_ms.iter().take(5) {
        println!("slow: {ms:.0} ms  {fen}");
    }
    if b.cpu_measured > 0 {
        println!(
            "thread CPU time: {} of {} found in under 1 s ({:.2}%), max {:.0} ms",
            b.cpu_found_under_1s,
            b.cpu_measured,
            100.0 * b.cpu_found_under_1s as f64 / b.cpu_measured as f64,
            b.cpu_max_ms
        );
    }
    let share = |n: usize| 100.0 * n as f64 / b.total.positions.max(1) as f64;
    println!(
        "wall time: found under 1 s: {:.2}%, under 10 s: {:.2}%",
        share(b.total.under_1s),
        share(b.total.under_10s)
    );
    Ok(())
}
