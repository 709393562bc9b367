//! `bastion rate`: ratings of every player in PGN files, anchored to given ratings.

use anyhow::{bail, Context, Result};
use bastion_arena::rating::{FitOptions, RatingPool, Ratings};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `bastion rate`.
#[derive(Args, Debug)]
pub struct RateArgs {
    /// PGN files (`-` reads standard input). Players are told apart by their `White` and
    /// `Black` tags: name an engine differently for each setting to rate them apart.
    #[arg(required = true)]
    pgn: Vec<PathBuf>,
    /// Hold a player at a published rating: `--anchor "Ethereal 12=3100"`; repeat for more.
    /// Without anchors the ratings average `--average`.
    #[arg(long = "anchor", value_name = "NAME=ELO")]
    anchors: Vec<String>,
    /// The players' average rating when no anchor is given.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    average: f64,
    /// Two-sided confidence level of the ± column.
    #[arg(long, default_value_t = 0.95)]
    confidence: f64,
    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,
}

/// Splits `NAME=ELO` at its last `=` (a name may hold one).
fn parse_anchor(text: &str) -> Result<(String, f64)> {
    let Some((name, elo)) = text.rsplit_once('=') else {
        bail!("--anchor {text:?}: expected NAME=ELO");
    };
    let elo: f64 = elo.trim().parse().with_context(|| format!("--anchor {text:?}: {elo:?} is not a number"))?;
    if name.trim().is_empty() || !elo.is_finite() {
        bail!("--anchor {text:?}: expected a player's name and a finite rating");
    }
    Ok((name.trim().to_string(), elo))
}

/// Runs `bastion rate`.
pub fn run(args: RateArgs) -> Result<()> {
    let anchors = args.anchors.iter().map(|a| parse_anchor(a)).collect::<Result<Vec<_>>>()?;
    let mut pool = RatingPool::new();
    let (mut read, mut skipped) = (0u64, 0u64);
    super::for_each_pgn_game(&args.pgn, |game| {
        read += 1;
        skipped += u64::from(!pool.add_pgn_game(&game));
    })?;
    let options = FitOptions { anchors, average: args.average, confidence: args.confidence };
    let ratings = pool.fit(&options).context("cannot fit ratings")?;
    if args.json {
        let doc = serde_json::json!({ "games_read": read, "games_skipped": skipped, "ratings": ratings });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print_table(&ratings, read, skipped);
    }
    Ok(())
}

fn print_table(ratings: &Ratings, read: u64, skipped: u64) {
    let skipped_note = if skipped > 0 {
        format!(" ({skipped} of {read} not counted: unfinished, unnamed or a player against itself)")
    } else {
        String::new()
    };
    println!("{} games between {} players{skipped_note}", ratings.games, ratings.players.len());
    let width = ratings.players.iter().map(|p| p.name.chars().count()).max().unwrap_or(6).max(6);
    let conf = format!("±{:.0}%", ratings.confidence * 100.0);
    println!(
        "{:>3}  {:<width$}  {:>8}  {:>7}  {:>6}  {:>6}  {:>6}  {:>8}",
        "#", "player", "rating", conf, "games", "score", "draws", "opp.avg"
    );
    for (rank, p) in ratings.players.iter().enumerate() {
        let margin = p.margin.map_or_else(|| "anchor".to_string(), |m| format!("{m:.1}"));
        let games = p.games.max(1) as f64;
        println!(
            "{:>3}  {:<width$}  {:>8.1}  {:>7}  {:>6}  {:>5.1}%  {:>5.1}%  {:>8.1}",
            rank + 1,
            p.name,
            p.rating,
            margin,
            p.games,
            100.0 * p.points / games,
            100.0 * p.draws as f64 / games,
            p.opponents
        );
    }
    println!(
        "logistic Elo, maximum likelihood; error bars from the games' dispersion {:.2} (1 = no draws)",
        ratings.dispersion
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_split_at_the_last_equals_sign() {
        assert_eq!(parse_anchor("Ethereal 12=3100").unwrap(), ("Ethereal 12".to_string(), 3100.0));
        assert_eq!(parse_anchor("a=b=-50.5").unwrap(), ("a=b".to_string(), -50.5));
        for bad in ["Ethereal", "=3000", "x=abc", "x=inf"] {
            assert!(parse_anchor(bad).is_err(), "{bad}");
        }
    }
}
