//! `bastion progressive selfplay` and `bench-endgames`: games between player
//! configurations, from the start or from basic endgames.

use super::{player, read, time_arg};
use crate::plural::count;
use anyhow::{anyhow, bail, Result};
use bastion_progressive::bench::{run_endgames as play_endgames, EndgameCase, EndgameGame, EndgameGroup};
use bastion_progressive::selfplay::{self, MatchConfig, MatchReport};
use bastion_progressive::{GameEnd, GameResult, PlayerOptions, ProgressiveError};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::time::Duration;

#[derive(Args, Debug)]
pub(super) struct SelfplayArgs {
    /// Number of games (colours alternate).
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Time per turn for both players.
    #[arg(long, default_value = "1")]
    time: String,
    /// Configuration A as key=value,… (depth, heuristic, variant, promotion, pin,
    /// eval-promotion, king-safety, endgame, book, wide-book, width, noise, time).
    #[arg(long, default_value = "")]
    variant_a: String,
    /// Configuration B, same keys.
    #[arg(long, default_value = "")]
    variant_b: String,
    /// Adjudicate a draw after this many turns.
    #[arg(long, default_value_t = 40)]
    max_turns: u32,
    /// Append every finished game's record to this file.
    #[arg(long)]
    pgn: Option<String>,
    /// First random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rules: italian or scottish.
    #[arg(long, default_value = "italian")]
    rules: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

/// Fewer games than this give no error bar: the normal approximation behind it
/// says nothing useful about a handful of games (two wins would read "± 0.0%").
const MIN_GAMES_FOR_ERROR_BAR: u32 = 10;

/// How a game ended, in words.
fn end_text(result: Option<GameResult>) -> &'static str {
    match result.map(|r| r.end) {
        None => "unfinished",
        Some(GameEnd::Checkmate) => "checkmate",
        Some(GameEnd::Stalemate) => "stalemate",
        Some(GameEnd::TenTurnRule) => "ten-turn rule",
        Some(GameEnd::Repetition) => "repetition",
        Some(GameEnd::Adjudicated) => "adjudicated",
    }
}

/// A share in percent with its 95% error bar, or a note that `games` are too few for one.
fn share_text(share: f64, error95: f64, games: u32) -> String {
    if games < MIN_GAMES_FOR_ERROR_BAR {
        format!("{:.1}% (too few games for an error bar)", 100.0 * share)
    } else {
        format!("{:.1}% ± {:.1}%", 100.0 * share, 100.0 * error95)
    }
}

/// A configuration as given, or `defaults` when nothing was changed.
fn spec_text(spec: &str) -> &str {
    if spec.trim().is_empty() {
        "defaults"
    } else {
        spec
    }
}

pub(super) fn run_selfplay(a: SelfplayArgs) -> Result<()> {
    let rules = a.rules.parse()?;
    let time = time_arg(&a.time)?;
    let config = MatchConfig {
        a: player(&a.variant_a, time, a.seed)?,
        b: player(&a.variant_b, time, a.seed)?,
        games: a.games,
        max_turns: a.max_turns,
        seed: a.seed,
        rules,
    };
    let report = selfplay::run(&config, |g| -> Result<()> {
        if let Some(path) = &a.pgn {
            let (white, black) = if g.a_white { ("A", "B") } else { ("B", "A") };
            let spec = |side| if side == "A" { &a.variant_a } else { &a.variant_b };
            let rec = g.game.record(&[
                ("Event", "bastion progressive selfplay".into()),
                ("White", format!("{white} {}", spec(white))),
                ("Black", format!("{black} {}", spec(black))),
            ]);
            let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
            writeln!(f, "{rec}")?;
        }
        let (s, e) = g.stats.score();
        eprintln!(
            "game {}/{}: {} in {} ({})  A score {}  [{:.0}s]",
            g.index + 1,
            a.games,
            g.game.result().map_or("*", |r| r.text()),
            count(u64::from(g.game.position().turn() - 1), "turn", "turns"),
            end_text(g.game.result()),
            share_text(s, e, g.stats.games),
            g.elapsed.as_secs_f64()
        );
        Ok(())
    })?;
    if a.json {
        #[derive(Serialize)]
        struct R<'a> {
            variant_a: &'a str,
            variant_b: &'a str,
            time_per_turn: f64,
            #[serde(flatten)]
            report: &'a MatchReport,
        }
        let r =
            R { variant_a: &a.variant_a, variant_b: &a.variant_b, time_per_turn: time.as_secs_f64(), report: &report };
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    let s = &report.stats;
    println!(
        "A: {}  B: {}  {}, {:?} per turn",
        spec_text(&a.variant_a),
        spec_text(&a.variant_b),
        count(u64::from(s.games), "game", "games"),
        time
    );
    println!(
        "A: +{} ={} -{}  score {}",
        s.wins,
        s.draws,
        s.losses,
        share_text(report.score_a, report.score_a_error95, s.games)
    );
    let decided = s.wins + s.losses;
    if decided == 0 {
        println!("no decided games; White won {}; {}", s.white_wins, count(u64::from(s.mates), "mate", "mates"));
    } else {
        println!(
            "A wins {} of decided games; White won {}; {}",
            share_text(report.decided_win_rate_a, report.decided_error95, decided),
            s.white_wins,
            count(u64::from(s.mates), "mate", "mates")
        );
    }
    for (o, s) in &report.openings {
        println!("  {o:<28} games {:>3}  white {:>3}  black {:>3}", s.games, s.white_wins, s.black_wins);
    }
    Ok(())
}

#[derive(Args, Debug)]
pub(super) struct EndgameArgs {
    /// File of `name ; progressive FEN` lines, the side to move being the stronger
    /// (e.g. crates/progressive/tests/data/endgames.txt).
    #[arg(long)]
    file: Option<String>,
    /// Random placements per material set and colour (added to --file's positions).
    #[arg(long, default_value_t = 0)]
    random: usize,
    /// Material of the stronger side for --random, comma-separated sets of Q R B N.
    #[arg(long, default_value = "Q,RB,BB,BN,RN,R")]
    sets: String,
    /// Turn (= the stronger side's series length) of the random positions.
    #[arg(long, default_value_t = 9)]
    turn: u32,
    /// Time per turn for both sides.
    #[arg(long, default_value = "0.5")]
    time: String,
    /// Configuration of the stronger side (keys as for selfplay --variant-a; noise 0 unless given).
    #[arg(long, default_value = "")]
    engine: String,
    /// Configuration of the bare king's side.
    #[arg(long, default_value = "")]
    defender: String,
    /// Random seed of the placements.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub(super) fn run_endgames(a: EndgameArgs) -> Result<()> {
    let time = time_arg(&a.time)?;
    // Endgames are played without noise (unless asked for) and without the opening book.
    let options = |spec: &str| -> Result<PlayerOptions> {
        let mut p = PlayerOptions { noise: 0.0, ..player("", time, a.seed)? };
        p.apply(spec)?;
        p.book = false;
        Ok(p)
    };
    let (attack, defend) = (options(&a.engine)?, options(&a.defender)?);
    let mut cases = Vec::new();
    if let Some(path) = &a.file {
        cases = EndgameCase::parse_list(&read(path)?).map_err(|e| match e {
            ProgressiveError::AtLine { line, reason } => anyhow!("{path}:{line}: {reason}"),
            e => e.into(),
        })?;
    }
    let sets: Vec<&str> = a.sets.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    cases.extend(EndgameCase::random(&sets, a.random, a.turn, a.seed)?);
    if cases.is_empty() {
        bail!("no positions: give --file and/or --random N");
    }
    let report = play_endgames(cases, &attack, &defend, &mut |n, g: &EndgameGame, elapsed: Duration| {
        eprintln!(
            "{:>3}. {:<14} {:<7} {:<12} last turn {:>3} ({}) {:.1}s  [{:.0}s]",
            n + 1,
            g.name,
            g.result,
            g.end.as_deref().unwrap_or("-"),
            g.last_turn,
            count(g.turns as u64, "turn", "turns"),
            g.seconds,
            elapsed.as_secs_f64()
        );
    });
    if a.json {
        #[derive(Serialize)]
        struct R<'a> {
            time_per_turn: f64,
            engine: &'a str,
            defender: &'a str,
            groups: &'a [EndgameGroup],
            games: &'a [EndgameGame],
            seconds: f64,
        }
        let r = R {
            time_per_turn: time.as_secs_f64(),
            engine: &a.engine,
            defender: &a.defender,
            groups: &report.groups,
            games: &report.games,
            seconds: report.seconds,
        };
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    println!("stronger side [{}] vs bare king [{}], {:?} per turn", a.engine, a.defender, time);
    println!("{:<10} {:>5} {:>5} {:>11} {:>10}", "endgame", "games", "won", "mean turns", "max turns");
    for g in &report.groups {
        println!("{:<10} {:>5} {:>5} {:>11.1} {:>10}", g.group, g.games, g.won, g.mean_turns_won, g.max_turns_won);
    }
    let won = report.games.iter().filter(|g| g.won).count();
    println!("won {won} of {} ({:.0} s)", report.games.len(), report.seconds);
    for g in report.games.iter().filter(|g| !g.won) {
        println!("  not won: {} {} ({})", g.name, g.fen, g.end.as_deref().unwrap_or("-"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastion_core::Color;

    #[test]
    fn endings_read_as_words() {
        let mate = GameResult { winner: Some(Color::White), end: GameEnd::Checkmate };
        assert_eq!(end_text(Some(mate)), "checkmate");
        assert_eq!(end_text(None), "unfinished");
    }

    #[test]
    fn a_handful_of_games_gets_no_error_bar() {
        assert_eq!(share_text(1.0, 0.0, 2), "100.0% (too few games for an error bar)");
        assert_eq!(share_text(0.55, 0.1, 100), "55.0% ± 10.0%");
        assert_eq!(spec_text(""), "defaults");
        assert_eq!(spec_text("depth=2"), "depth=2");
    }
}
