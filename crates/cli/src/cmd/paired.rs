//! `bastion paired`: two versions of an engine compared game by game, on the same openings
//! and colours against the same opponent.

use anyhow::{Context, Result};
use bastion_arena::paired::PairedComparison;
use bastion_arena::pgn::{for_each_game, PgnGame};
use clap::Args;
use std::path::{Path, PathBuf};

/// Arguments of `bastion paired`.
#[derive(Args, Debug)]
pub struct PairedArgs {
    /// The base version's games (`-` reads standard input).
    base_pgn: PathBuf,
    /// The candidate's games.
    candidate_pgn: PathBuf,
    /// The base version's name in its games; by default the one player of the base games
    /// that does not play in the candidate's.
    #[arg(long)]
    base: Option<String>,
    /// The candidate's name in its games (by default found as for `--base`).
    #[arg(long)]
    candidate: Option<String>,
    /// Two-sided confidence level of the intervals.
    #[arg(long, default_value_t = 0.95)]
    confidence: f64,
    /// Print one JSON document (with every matched pair) instead of the lines.
    #[arg(long)]
    json: bool,
}

fn read(path: &Path) -> Result<Vec<PgnGame>> {
    let mut games = Vec::new();
    for_each_game(super::open_input(path)?, |g| {
        games.push(g);
        true
    })
    .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(games)
}

/// Runs `bastion paired`.
pub fn run(args: PairedArgs) -> Result<()> {
    let base = read(&args.base_pgn)?;
    let candidate = read(&args.candidate_pgn)?;
    let comparison =
        PairedComparison::new(&base, args.base.as_deref(), &candidate, args.candidate.as_deref(), args.confidence)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&comparison)?);
    } else {
        print!("{}", comparison.report());
    }
    Ok(())
}
