//! `bastion conversion`: how each engine's clear advantages and disadvantages in PGN games
//! ended, from the scores in the move comments that `bastion match` and cutechess-cli write.

use anyhow::{bail, Result};
use bastion_arena::conversion::{Advantage, Conversion};
use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `bastion conversion`.
#[derive(Args, Debug)]
pub struct ConversionArgs {
    /// PGN files (`-` reads standard input). Engines are told apart by their `White` and
    /// `Black` tags; scores come from the move comments (`+1.25/17 0.210s`).
    #[arg(required = true)]
    pgn: Vec<PathBuf>,
    /// A clear advantage: the engine's own score at least this many pawns …
    #[arg(long, default_value_t = Advantage::default().pawns)]
    pawns: f64,
    /// … for at least this many of its scored moves in a row.
    #[arg(long, default_value_t = Advantage::default().moves)]
    moves: u32,
    /// Print one JSON document instead of the lines.
    #[arg(long)]
    json: bool,
}

/// Runs `bastion conversion`.
pub fn run(args: ConversionArgs) -> Result<()> {
    if !(args.pawns.is_finite() && args.pawns > 0.0) {
        bail!("--pawns must be a positive number of pawns, not {}", args.pawns);
    }
    if args.moves == 0 {
        bail!("--moves must be at least 1");
    }
    let adv = Advantage { pawns: args.pawns, moves: args.moves };
    let mut engines: BTreeMap<String, Conversion> = BTreeMap::new();
    let mut games = 0u64;
    super::for_each_pgn_game(&args.pgn, |game| {
        games += 1;
        for (name, c) in Conversion::of_pgn_game(&game, &adv) {
            engines.entry(name).or_default().merge(&c);
        }
    })?;
    if args.json {
        let doc = serde_json::json!({ "games": games, "advantage": adv, "engines": engines });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    println!("{games} games");
    if engines.is_empty() {
        println!("no finished games");
    }
    for (name, c) in &engines {
        let lines = c.describe(&adv);
        println!("{name}: {}", lines[0]);
        for line in &lines[1..] {
            println!("  {line}");
        }
    }
    Ok(())
}
