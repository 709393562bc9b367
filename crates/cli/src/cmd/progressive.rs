//! `bastion progressive`: Progressive (1-2-3) chess — mate search, series
//! enumeration, play against a person, self-play matches, the mate test set
//! and its benchmark. The work is done by `bastion-progressive`; this module
//! reads the arguments and prints.

mod matches;
mod play;
mod testset;

use crate::plural::count;
use anyhow::{anyhow, bail, Context, Result};
use bastion_progressive::{
    count_series, exhaustive_mate, find_mate, legal_series, parse_duration, series_text, series_uci, Game, MateOptions,
    MateOutcome, PlayerOptions, Rules, SeriesPosition, Status,
};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::time::Duration;

/// Arguments of `bastion progressive`.
#[derive(Args, Debug)]
pub struct ProgressiveArgs {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Find a mate in the current series of a position.
    Mate(MateArgs),
    /// List or count the legal series of a position.
    Series(SeriesArgs),
    /// Play against the computer (or a person) in the terminal; moves are read from stdin.
    Play(play::PlayArgs),
    /// Let two player configurations play each other.
    Selfplay(matches::SelfplayArgs),
    /// Collect positions with a mate from self-play games into a test-set file (resumable).
    GenMates(testset::GenArgs),
    /// Time the mate finder on a test-set file, per series length.
    BenchMates(testset::BenchArgs),
    /// Load a game record, check every move and print it.
    Replay(ReplayArgs),
    /// Play basic endgames (king and pieces against a bare king) between two copies of the player.
    BenchEndgames(matches::EndgameArgs),
}

/// Runs `bastion progressive …`.
pub fn run(args: ProgressiveArgs) -> Result<()> {
    match args.command {
        Sub::Mate(a) => run_mate(a),
        Sub::Series(a) => run_series(a),
        Sub::Play(a) => play::run(a),
        Sub::Selfplay(a) => matches::run_selfplay(a),
        Sub::GenMates(a) => testset::run_gen(a),
        Sub::BenchMates(a) => testset::run_bench(a),
        Sub::Replay(a) => run_replay(a),
        Sub::BenchEndgames(a) => matches::run_endgames(a),
    }
}

/// A time argument (`2`, `2s`, `500ms`).
fn time_arg(s: &str) -> Result<Duration> {
    Ok(parse_duration(s)?)
}

/// A player from option text (`key=value,…`) on top of the varied defaults.
fn player(spec: &str, time: Duration, seed: u64) -> Result<PlayerOptions> {
    let mut p = PlayerOptions::varied(time, seed);
    p.apply(spec)?;
    Ok(p)
}

/// A position argument: `startpos`, a progressive FEN, or a plain FEN with `series`.
fn position_from(fen: &str, series: Option<u32>, rules: Rules) -> Result<SeriesPosition> {
    let fen = if fen == "startpos" { bastion_core::fen::STARTPOS } else { fen };
    let series = if fen == bastion_core::fen::STARTPOS && series.is_none() { Some(1) } else { series };
    SeriesPosition::from_fen(fen, series, rules).map_err(|e| anyhow!("{e}"))
}

fn read(path: &str) -> Result<String> {
    use bastion_core::io::{read_to_string_bounded, BoundedReadError, TEXT_LIMIT};
    read_to_string_bounded(std::path::Path::new(path), TEXT_LIMIT)
        .map_err(BoundedReadError::into_io)
        .with_context(|| format!("reading {path}"))
}

/// How the mate finder searches: the options `mate` and `bench-mates` share.
#[derive(Args, Debug)]
struct MateSearchArgs {
    /// Mate heuristic: coverage (default), manhattan, figures, squares, baseline.
    #[arg(long, default_value = "coverage")]
    heuristic: String,
    /// Search variant: astar (default) or best-first.
    #[arg(long, default_value = "astar")]
    variant: String,
    /// Leave out the promotion term.
    #[arg(long)]
    no_promotion: bool,
    /// Leave out the king-pin term.
    #[arg(long)]
    no_pin: bool,
}

impl MateSearchArgs {
    /// The mate finder's options with these choices and `time`.
    fn options(&self, time: std::time::Duration) -> Result<MateOptions> {
        Ok(MateOptions {
            heuristic: self.heuristic.parse()?,
            variant: self.variant.parse()?,
            promotion: !self.no_promotion,
            pin: !self.no_pin,
            ..MateOptions::with_time(time)
        })
    }
}

#[derive(Args, Debug)]
struct MateArgs {
    /// Progressive FEN (7 fields) or plain FEN with --series.
    fen: String,
    /// Length of the series (required for a plain FEN; overrides the 7th field).
    #[arg(long)]
    series: Option<u32>,
    /// Time limit (e.g. 10, 2s, 500ms).
    #[arg(long, default_value = "10")]
    time: String,
    #[command(flatten)]
    search: MateSearchArgs,
    /// Search every series: finds a mate or proves there is none (within --time).
    #[arg(long)]
    exhaustive: bool,
    /// Rules: italian (default) or scottish.
    #[arg(long, default_value = "italian")]
    rules: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct MateReport {
    fen: String,
    series: u32,
    moves_left: u32,
    method: String,
    outcome: MateOutcome,
    mate: Option<String>,
    mate_uci: Option<Vec<String>>,
    nodes: u64,
    seconds: f64,
}

fn run_mate(a: MateArgs) -> Result<()> {
    let pos = position_from(&a.fen, a.series, a.rules.parse()?)?;
    let time = time_arg(&a.time)?;
    let status = pos.status();
    if status != Status::Ongoing {
        bail!("the game is already over in this position ({status:?}); there is nothing to search");
    }
    let (r, method) = if a.exhaustive {
        (exhaustive_mate(&pos, time, None), "exhaustive".to_string())
    } else {
        let opts = a.search.options(time)?;
        let m = format!("{:?}/{:?}", opts.heuristic, opts.variant);
        (find_mate(&pos, &opts), m)
    };
    let rep = MateReport {
        fen: pos.fen(),
        series: pos.series_len(),
        moves_left: pos.moves_left(),
        method,
        outcome: r.outcome,
        mate: r.moves.as_ref().map(|m| series_text(&pos, m)),
        mate_uci: r.moves.as_ref().map(|m| series_uci(&pos, m)),
        nodes: r.nodes,
        seconds: r.elapsed.as_secs_f64(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rep)?);
        return Ok(());
    }
    println!("{pos}");
    println!("series {} ({}), {}", rep.series, count(rep.moves_left as u64, "move left", "moves left"), rep.method);
    match rep.outcome {
        MateOutcome::Found => println!("mate: {}", rep.mate.unwrap_or_default()),
        MateOutcome::NoMate => println!("no mate exists in this series (proved by exhausting the search)"),
        MateOutcome::Unknown => println!("no mate found within the limit (unknown whether one exists)"),
    }
    println!("nodes {}  time {:.3}s", rep.nodes, rep.seconds);
    Ok(())
}

#[derive(Args, Debug)]
struct SeriesArgs {
    /// Progressive FEN, plain FEN with --series, or `startpos`.
    fen: String,
    /// Length of the series for a plain FEN.
    #[arg(long)]
    series: Option<u32>,
    /// List at most this many series (0: only count).
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Rules: italian or scottish.
    #[arg(long, default_value = "italian")]
    rules: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

fn run_series(a: SeriesArgs) -> Result<()> {
    let pos = position_from(&a.fen, a.series, a.rules.parse()?)?;
    if pos.moves_left() > 6 {
        bail!("counting {} moves of series would take too long; at most 6 are supported", pos.moves_left());
    }
    let (series, distinct_end_positions) = count_series(&pos);
    let first: Vec<String> = legal_series(&pos, a.limit).iter().map(|s| series_text(&pos, s)).collect();
    if a.json {
        #[derive(Serialize)]
        struct R {
            fen: String,
            series: u64,
            distinct_end_positions: u64,
            first: Vec<String>,
        }
        println!("{}", serde_json::to_string_pretty(&R { fen: pos.fen(), series, distinct_end_positions, first })?);
    } else {
        println!("{series} legal series, {distinct_end_positions} distinct end positions");
        for s in first {
            println!("  {s}");
        }
    }
    Ok(())
}

#[derive(Args, Debug)]
struct ReplayArgs {
    /// Game record file.
    file: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

fn run_replay(a: ReplayArgs) -> Result<()> {
    let game = Game::from_record(&read(&a.file)?)?;
    if a.json {
        #[derive(Serialize)]
        struct R {
            moves: String,
            fen: String,
            result: Option<String>,
        }
        let result = game.result().map(|r| r.text().to_string());
        println!(
            "{}",
            serde_json::to_string_pretty(&R { moves: game.notation(), fen: game.position().fen(), result })?
        );
    } else {
        println!("{}", game.position());
        println!("{}", game.notation());
        if let Some(r) = game.result() {
            println!("result {} ({:?})", r.text(), r.end);
        }
    }
    Ok(())
}
