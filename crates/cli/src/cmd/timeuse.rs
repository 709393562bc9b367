//! `bastion timeuse`: how each engine spent its clock in PGN games, from the move comments
//! (`score/depth time`) that `bastion match` and cutechess-cli write.

use anyhow::Result;
use bastion_arena::time_use::TimeUse;
use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `bastion timeuse`.
#[derive(Args, Debug)]
pub struct TimeUseArgs {
    /// PGN files (`-` reads standard input). Engines are told apart by their `White` and
    /// `Black` tags; clocks come from `TimeControl` (or `WhiteTimeControl`/`BlackTimeControl`).
    #[arg(required = true)]
    pgn: Vec<PathBuf>,
    /// Print one JSON document instead of the lines.
    #[arg(long)]
    json: bool,
}

/// Runs `bastion timeuse`.
pub fn run(args: TimeUseArgs) -> Result<()> {
    let mut engines: BTreeMap<String, TimeUse> = BTreeMap::new();
    let mut games = 0u64;
    super::for_each_pgn_game(&args.pgn, |game| {
        games += 1;
        for (name, t) in TimeUse::of_pgn_game(&game) {
            if t.moves > 0 {
                engines.entry(name).or_default().merge(&t);
            }
        }
    })?;
    if args.json {
        let doc = serde_json::json!({ "games": games, "time_use": engines });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    println!("{games} games");
    if engines.is_empty() {
        println!("no timed moves (comments such as {{+0.35/17 0.210s}})");
    }
    for (name, t) in &engines {
        println!("{name}: {}", t.describe());
        if let Some(profile) = t.describe_profile() {
            println!("  {profile}");
        }
    }
    Ok(())
}
