//! `bastion progressive play`: a game in the terminal, moves read from stdin.

use super::{player, position_from, read, time_arg};
use anyhow::{anyhow, bail, Context, Result};
use bastion_core::Color;
use bastion_progressive::{choose_series, series_text, strip_turn_number, Game, Rules};
use clap::Args;
use std::io::{BufRead, Write};
use std::time::Instant;

#[derive(Args, Debug)]
pub(super) struct PlayArgs {
    /// The colour you play: white, black, both (two people) or none (watch).
    #[arg(long, default_value = "white")]
    human: String,
    /// Computer time per turn.
    #[arg(long, default_value = "5")]
    time: String,
    /// Computer configuration (see selfplay --variant-a).
    #[arg(long, default_value = "")]
    engine: String,
    /// Start from this progressive FEN instead of the initial position.
    #[arg(long)]
    fen: Option<String>,
    /// Continue a saved game record.
    #[arg(long)]
    load: Option<String>,
    /// Write the game record here after every series.
    #[arg(long)]
    save: Option<String>,
    /// Rules: italian or scottish.
    #[arg(long, default_value = "italian")]
    rules: String,
}

pub(super) fn run(a: PlayArgs) -> Result<()> {
    let rules: Rules = a.rules.parse()?;
    let mut game = if let Some(path) = &a.load {
        Game::from_record(&read(path)?)?
    } else if let Some(fen) = &a.fen {
        Game::from_position(position_from(fen, None, rules)?)
    } else {
        Game::new(rules)
    };
    let human = |c: Color| match a.human.as_str() {
        "both" => true,
        "none" => false,
        "black" => c == Color::Black,
        _ => c == Color::White,
    };
    if !matches!(a.human.as_str(), "white" | "black" | "both" | "none") {
        bail!("--human must be white, black, both or none");
    }
    let engine = player(&a.engine, time_arg(&a.time)?, 1)?;
    let mut lines = std::io::stdin().lock().lines();
    let save = |g: &Game| -> Result<()> {
        if let Some(path) = &a.save {
            std::fs::write(path, g.record(&[("Event", "bastion progressive play".into())]))
                .with_context(|| format!("writing {path}"))?;
        }
        Ok(())
    };
    while game.result().is_none() {
        let pos = game.position().clone();
        if pos.played() == 0 {
            println!("\n{pos}");
            let side = if pos.side_to_move() == Color::White { "White" } else { "Black" };
            let plural = if pos.series_len() == 1 { "" } else { "s" };
            println!("turn {}: {side} plays {} move{plural}", pos.turn(), pos.series_len());
        }
        if human(pos.side_to_move()) {
            print!("move {} of {}> ", pos.played() + 1, pos.series_len());
            std::io::stdout().flush()?;
            let Some(line) = lines.next() else {
                println!("\nend of input");
                break;
            };
            play_tokens(&mut game, &line?);
        } else {
            let t0 = Instant::now();
            let choice = choose_series(&pos, &engine).ok_or_else(|| anyhow!("no move"))?;
            println!(
                "computer: {}   ({:?}, score {:.1}, {:.1}s)",
                series_text(&pos, &choice.moves),
                choice.phase,
                choice.score,
                t0.elapsed().as_secs_f64()
            );
            game.play_series(&choice.moves)?;
        }
        if game.position().played() == 0 {
            save(&game)?;
        }
    }
    save(&game)?;
    println!("\n{}", game.position());
    if let Some(r) = game.result() {
        println!("result {} ({:?})", r.text(), r.end);
    }
    println!("{}", game.notation());
    Ok(())
}

/// Plays one input line: moves, or the commands `quit`/`resign`, `moves`
/// and `fen`. Stops at the first illegal move or when the game ends.
fn play_tokens(game: &mut Game, line: &str) {
    for tok in line.split_whitespace() {
        match tok {
            "quit" | "resign" => {
                game.adjudicate(Some(!game.position().side_to_move()));
                break;
            }
            "moves" => {
                let p = game.position();
                let list: Vec<String> = p.legal_moves().iter().map(|&m| p.board().san_without_suffix(m)).collect();
                println!("{}", list.join(" "));
            }
            "fen" => println!("{}", game.position().fen()),
            t => {
                let t = strip_turn_number(t);
                if t.is_empty() {
                    continue;
                }
                if let Err(e) = game.play_text(t) {
                    println!("{e}; type `moves` for the legal moves");
                    break;
                }
            }
        }
        if game.result().is_some() {
            break;
        }
    }
}
