//! `bastion nnue`: gather positions from PGN games, label positions with search scores and
//! train the neural evaluation.
//!
//! `bastion nnue label --data tune.csv --out labelled.csv --depth 6` appends a search
//! score to every line (resumable); `bastion nnue train --data labelled.csv --out net.nnue`
//! fits a network that the engine loads with the `EvalFile` option.

use crate::plural::count;
use anyhow::{bail, Context, Result};
use bastion_core::io::write_atomically;
use bastion_train::positions::QuietPositions;
use bastion_train::LabelConfig;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

mod stats;
mod train;
use stats::StatsArgs;
use train::TrainArgs;

/// Arguments of `bastion nnue`.
#[derive(Args, Debug)]
pub struct NnueArgs {
    #[command(subcommand)]
    command: NnueCommand,
}

#[derive(Subcommand, Debug)]
enum NnueCommand {
    /// Append White's search score to every `fen,result,game` line.
    Label(LabelArgs),
    /// Train a network on (labelled) self-play data.
    Train(TrainArgs),
    /// Write the quiet positions of PGN games as `fen,result,game` lines for `label`.
    Positions(PositionsArgs),
    /// Convert data between `fen,result,game,score` lines and 32-byte packed records
    /// (marlinformat), each way as the names say (`.bin`: packed).
    Convert(ConvertArgs),
    /// What data files or PGN games hold: positions by men on the board, results, scores.
    Stats(StatsArgs),
}

#[derive(Args, Debug)]
struct ConvertArgs {
    /// Input data file.
    #[arg(long)]
    data: PathBuf,
    /// Output file (replaced when the conversion is complete).
    #[arg(long)]
    out: PathBuf,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct PositionsArgs {
    /// PGN files (`-`: standard input).
    #[arg(required = true)]
    pgn: Vec<PathBuf>,
    /// Output file (replaced).
    #[arg(long)]
    out: PathBuf,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct LabelArgs {
    /// Input data (`fen,result,game` lines, as written by `bastion tune --generate`).
    #[arg(long)]
    data: PathBuf,
    /// Output file; an existing one is continued.
    #[arg(long)]
    out: PathBuf,
    /// Search depth of each label.
    #[arg(long, default_value_t = 6)]
    depth: i32,
    /// Move each position on by 1 to N random legal moves before labelling (0: label as is).
    #[arg(long, default_value_t = 0)]
    random_plies: usize,
    /// Seed for the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (one engine each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the subcommand.
pub fn run(args: NnueArgs) -> Result<()> {
    match args.command {
        NnueCommand::Label(a) => label(a),
        NnueCommand::Train(a) => train::run(a),
        NnueCommand::Positions(a) => positions(a),
        NnueCommand::Convert(a) => convert(a),
        NnueCommand::Stats(a) => stats::run(a),
    }
}

/// Converts between CSV lines and packed records.
fn convert(a: ConvertArgs) -> Result<()> {
    let bar = bastion_progress::spinner(!a.json, "{spinner} {msg} {elapsed}");
    let done = bastion_train::convert::convert(&a.data, &a.out, &|n| bar.set_message(format!("{n} positions")))
        .with_context(|| format!("converting {} to {}", a.data.display(), a.out.display()))?;
    bar.finish_and_clear();
    if a.json {
        println!(
            "{}",
            serde_json::json!({"written": done.written, "skipped": done.skipped, "out": a.out.display().to_string()})
        );
    } else {
        println!(
            "{} written to {} ({} skipped: bad, or without a score or a result)",
            count(done.written, "position", "positions"),
            a.out.display(),
            done.skipped
        );
    }
    Ok(())
}

/// Game positions worth a label (see [`QuietPositions`]).
fn positions(a: PositionsArgs) -> Result<()> {
    let mut set = QuietPositions::new();
    let mut skipped = 0usize;
    for path in &a.pgn {
        // Streamed a game at a time: a regular file of any size will do.
        let reader = super::open_input(path)?;
        bastion_arena::pgn::for_each_game(reader, |game| {
            match game.winner() {
                Some(winner) => set.add_game(&game.start, &game.moves, winner),
                None => skipped += 1,
            }
            true
        })
        .with_context(|| format!("reading {}", path.display()))?;
    }
    write_atomically(&a.out, "partial", set.lines().as_bytes())
        .with_context(|| format!("writing {}", a.out.display()))?;
    let games = set.games();
    if a.json {
        println!(
            "{}",
            serde_json::json!({"games": games, "unfinished_games_skipped": skipped, "positions": set.len(),
                "out": a.out.display().to_string()})
        );
    } else {
        println!(
            "{} from {} ({skipped} without a result skipped) written to {}",
            count(set.len() as u64, "position", "positions"),
            count(games as u64, "game", "games"),
            a.out.display()
        );
    }
    Ok(())
}

fn interrupt_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    stop
}

fn label(a: LabelArgs) -> Result<()> {
    if a.depth < 1 || a.threads == 0 {
        bail!("--depth and --threads must be positive");
    }
    let stop = interrupt_flag();
    let progress = bastion_progress::bar(!a.json, 0, "{bar:40} {pos}/{len} positions eta {eta}");
    let written = bastion_train::label_file(
        &a.data,
        &a.out,
        &LabelConfig { depth: a.depth, random_plies: a.random_plies, seed: a.seed, threads: a.threads },
        &mut |done, total| {
            progress.set_length(total as u64);
            progress.set_position(done as u64);
        },
        &|| stop.load(Ordering::Relaxed),
    )
    .with_context(|| format!("labelling {} into {}", a.data.display(), a.out.display()))?;
    progress.finish();
    let interrupted = stop.load(Ordering::Relaxed);
    if a.json {
        println!(
            "{}",
            serde_json::json!({"labelled": written, "interrupted": interrupted, "out": a.out.display().to_string()})
        );
    } else {
        println!(
            "{} labelled at depth {} into {}",
            count(written as u64, "position", "positions"),
            a.depth,
            a.out.display()
        );
        if interrupted {
            println!("interrupted; run the same command again to continue");
        }
    }
    Ok(())
}
