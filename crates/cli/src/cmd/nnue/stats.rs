//! `bastion nnue stats`: what data files (or PGN games) hold — positions by men on the
//! board, results and score sizes — to compare the positions a network learns from with
//! those it meets in games.

use crate::plural::count;
use anyhow::{bail, Context, Result};
use bastion_train::stats::{DataStats, MEN_BANDS};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `bastion nnue stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Data files: packed records (`.bin`) or `fen,result,game[,score]` lines.
    #[arg(long, num_args = 1..)]
    data: Vec<PathBuf>,
    /// PGN files instead (or as well): every position of every game's main line before
    /// each move, with the game's result (`-` reads standard input).
    #[arg(long, num_args = 1..)]
    pgn: Vec<PathBuf>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `bastion nnue stats`.
pub fn run(a: StatsArgs) -> Result<()> {
    if a.data.is_empty() && a.pgn.is_empty() {
        bail!("give --data files, --pgn files or both");
    }
    let mut s = DataStats::default();
    for path in &a.data {
        s.merge(&DataStats::read(path).with_context(|| format!("cannot read {}", path.display()))?);
    }
    crate::cmd::for_each_pgn_game(&a.pgn, |game| {
        let result = game.winner().map(|w| match w {
            Some(bastion_core::Color::White) => 1.0,
            Some(bastion_core::Color::Black) => 0.0,
            None => 0.5,
        });
        let mut pos = game.start.clone();
        for &m in &game.moves {
            s.add(&pos, result, None);
            pos = pos.play(m);
        }
    })?;
    let bands: Vec<(String, f64)> =
        MEN_BANDS.iter().map(|&(lo, hi)| (format!("{lo}–{hi}"), 100.0 * s.share_of_men(lo, hi))).collect();
    let with_result: u64 = s.results.iter().sum();
    let pct = |n: u64| if with_result == 0 { 0.0 } else { 100.0 * n as f64 / with_result as f64 };
    if a.json {
        let men: serde_json::Map<String, serde_json::Value> =
            bands.iter().map(|(k, v)| (k.clone(), serde_json::json!(v))).collect();
        let doc = serde_json::json!({
            "positions": s.positions,
            "skipped": s.skipped,
            "men_percent": men,
            "by_men": s.by_men.to_vec(),
            "white_results": {"won": s.results[0], "drawn": s.results[1], "lost": s.results[2]},
            "scored": s.scored,
            "mean_abs_score_pawns": s.mean_abs_score(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    println!("{} ({} unreadable)", count(s.positions, "position", "positions"), s.skipped);
    let bands: Vec<String> = bands.iter().map(|(k, v)| format!("{k} {v:.1} %")).collect();
    println!("men on the board: {}", bands.join(", "));
    if with_result > 0 {
        println!(
            "White's results: won {:.1} %, drawn {:.1} %, lost {:.1} %",
            pct(s.results[0]),
            pct(s.results[1]),
            pct(s.results[2])
        );
    }
    if let Some(m) = s.mean_abs_score() {
        println!("mean size of the scores: {m:.2} pawns ({} scored)", s.scored);
    }
    Ok(())
}
