//! `bastion match`: two UCI engines play a match with live Elo, error bars
//! and SPRT; PGN output; adjudication; optional book learning.

use anyhow::{bail, Context, Result};
use bastion_arena::book::LearnParams;
use bastion_arena::openings::{self, Opening};
use bastion_arena::referee::{Adjudication, DrawRule, EngineConfig, RefereeConfig, ResignRule};
use bastion_arena::stats::SprtParams;
use bastion_arena::time_control::TimeControl;
use bastion_arena::tournament::{run_match, BookLearning, MatchConfig, MatchReport};
use bastion_core::TablebaseProbe;
use bastion_tablebase::Probers;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `bastion match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine: `name=A cmd="./engine --flag" [dir=DIR] [tc=2.5+0.025] [option.Hash=64 …]`
    /// (`tc=`: this engine's own clock, for time odds). Give exactly two;
    /// results are reported for the first. Without `name=` an engine is named by its UCI
    /// `id name`; a second engine of the same name gets " (2)".
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", required = true, action = clap::ArgAction::Append)]
    engines: Vec<String>,
    #[command(flatten)]
    limit: LimitArgs,
    /// Number of games (rounded up to even with --repeat).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Openings: an .epd file (one position per line) or a .pgn file (each game's moves).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Play each opening twice, colours reversed (game pairs; pentanomial statistics).
    #[arg(long)]
    repeat: bool,
    /// Append games to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Continue an interrupted match from the games already in --pgn.
    #[arg(long, requires = "pgn")]
    resume: bool,
    /// Sequential test: `elo0=0 elo1=5 alpha=0.05 beta=0.05`.
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Grace in milliseconds past the clock before a move is a time forfeit.
    #[arg(long, default_value_t = 100)]
    margin: u64,
    /// With --nodes/--depth: seconds a move may take before it is a forfeit.
    #[arg(long, default_value_t = 60)]
    move_timeout: u64,
    /// Resign adjudication: both engines report at least this many centipawns for one side…
    #[arg(long, requires = "resign_moves")]
    resign_score: Option<i32>,
    /// …for this many moves each.
    #[arg(long, requires = "resign_score")]
    resign_moves: Option<u32>,
    /// Draw adjudication: both engines report |score| at most this many centipawns…
    #[arg(long, requires = "draw_moves")]
    draw_score: Option<i32>,
    /// …for this many moves each…
    #[arg(long, requires = "draw_score")]
    draw_moves: Option<u32>,
    /// …from this move number on.
    #[arg(long, default_value_t = 40)]
    draw_after: u32,
    /// Draw any game that reaches this many moves.
    #[arg(long)]
    max_moves: Option<u32>,
    /// Adjudicate positions covered by Bastion's DTM tables in this directory
    /// (they ignore the 50-move rule: a won position is adjudicated a win).
    #[arg(long)]
    tb_dir: Option<PathBuf>,
    /// Adjudicate positions covered by Syzygy WDL tables in this directory
    /// (cursed wins and blessed losses are draws).
    #[arg(long)]
    syzygy: Option<PathBuf>,
    /// Learn this Polyglot book from the games (created when missing).
    #[arg(long)]
    learn_book: Option<PathBuf>,
    /// Whose moves the book learns (default: the first engine).
    #[arg(long, requires = "learn_book")]
    learn_engine: Option<String>,
    /// Plies learned from each game.
    #[arg(long, default_value_t = 20)]
    learn_depth: usize,
    /// PGN Event tag.
    #[arg(long, default_value = "Bastion match")]
    event: String,
    /// Print one JSON document (the final report) instead of text.
    #[arg(long)]
    json: bool,
}

/// The tables named by `--syzygy` or, without it, `--tb-dir`, as the referee's
/// adjudicator: Syzygy respects the 50-move rule, Bastion's DTM tables do not.
fn tablebase_adjudicator(args: &MatchArgs) -> Result<Option<Arc<dyn TablebaseProbe>>> {
    let probers = match (&args.syzygy, &args.tb_dir) {
        (Some(dir), _) => Probers::open::<&Path>(&[], Some(dir.as_path())),
        (None, Some(dir)) => Probers::open(&[dir], None),
        (None, None) => return Ok(None),
    }?;
    Ok(Some(Arc::new(probers)))
}

fn parse_sprt(words: &[String]) -> Result<SprtParams> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (0.0, 5.0, 0.05, 0.05);
    for w in words {
        let (k, v) = w.split_once('=').with_context(|| format!("--sprt argument {w:?} is not key=value"))?;
        let v: f64 = v.parse().with_context(|| format!("--sprt {k}: {v:?} is not a number"))?;
        match k {
            "elo0" => elo0 = v,
            "elo1" => elo1 = v,
            "alpha" => alpha = v,
            "beta" => beta = v,
            _ => bail!("--sprt: unknown key {k:?} (elo0, elo1, alpha, beta)"),
        }
    }
    Ok(SprtParams::new(elo0, elo1, alpha, beta)?)
}

/// The name an engine gives itself (`id name`), as cutechess names an engine
/// given without `name=`; its command line when it sends none.
fn uci_name(cfg: &EngineConfig) -> Result<String> {
    let engine = cfg.start().with_context(|| format!("starting engine {:?}", cfg.command))?;
    Ok(engine.name().map(str::trim).filter(|n| !n.is_empty()).unwrap_or(&cfg.command).to_owned())
}

/// The second engine's name, with ` (2)` added when it equals the first's, so that
/// results, PGN tags and `--learn-engine` can tell the two apart.
fn distinct_name(first: &str, second: &str) -> String {
    if first == second {
        format!("{second} (2)")
    } else {
        second.to_owned()
    }
}

/// Splits the `--engine` values into one group per `--engine` occurrence.
///
/// clap's derive API flattens repeated multi-value options, so the groups
/// are recovered from the command line itself (the tokens after each
/// `--engine` up to the next option); when that does not match what clap
/// parsed (the command was not run from a shell line), a new group starts
/// at each `name=`.
fn group_engines(flat: &[String], argv: &[String]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut inside = false;
    for a in argv {
        if a == "--engine" {
            groups.push(Vec::new());
            inside = true;
        } else if let Some(v) = a.strip_prefix("--engine=") {
            groups.push(vec![v.to_string()]);
            inside = true;
        } else if a.starts_with("--") {
            inside = false;
        } else if inside {
            if let Some(g) = groups.last_mut() {
                g.push(a.clone());
            }
        }
    }
    if groups.concat() == flat {
        return groups;
    }
    let mut groups: Vec<Vec<String>> = Vec::new();
    for v in flat {
        if v.starts_with("name=") || groups.is_empty() {
            groups.push(Vec::new());
        }
        groups.last_mut().expect("pushed above").push(v.clone());
    }
    groups
}

/// The limit of each move: one of `--tc`, `--nodes`, `--movetime` and `--depth` (shared by the
/// commands that play games).
#[derive(Args, Debug)]
pub struct LimitArgs {
    /// Clock time control in seconds: `10+0.1`, `40/60+0.5`.
    #[arg(long, group = "limit")]
    tc: Option<String>,
    /// Fixed nodes per move.
    #[arg(long, group = "limit")]
    nodes: Option<u64>,
    /// Fixed time per move, in milliseconds.
    #[arg(long, group = "limit")]
    movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, group = "limit")]
    depth: Option<u32>,
}

impl LimitArgs {
    /// The limit given, `None` when none is.
    pub fn time_control(&self) -> Result<Option<TimeControl>> {
        Ok(Some(match (&self.tc, self.nodes, self.movetime, self.depth) {
            (Some(tc), ..) => TimeControl::parse_clock(tc).map_err(anyhow::Error::msg)?,
            (_, Some(n), ..) if n > 0 => TimeControl::Nodes(n),
            (_, _, Some(ms), _) if ms > 0 => TimeControl::MoveTime(Duration::from_millis(ms)),
            (_, _, _, Some(d)) if d > 0 => TimeControl::Depth(d),
            (None, None, None, None) => return Ok(None),
            _ => bail!("the limit must be positive"),
        }))
    }
}

/// The match the arguments describe: engines named (by their `id name` when `name=` is not
/// given), limit, openings, adjudication, SPRT, PGN file and book learning. `bastion cluster
/// match` builds its match with this too, on every rank.
pub fn match_config(args: &MatchArgs) -> Result<MatchConfig> {
    let argv: Vec<String> = std::env::args().collect();
    let engines = group_engines(&args.engines, &argv);
    if engines.len() != 2 {
        bail!("give exactly two --engine, got {}", engines.len());
    }
    let mut a = EngineConfig::parse(&engines[0]).map_err(anyhow::Error::msg)?;
    let mut b = EngineConfig::parse(&engines[1]).map_err(anyhow::Error::msg)?;
    for (cfg, words) in [(&mut a, &engines[0]), (&mut b, &engines[1])] {
        if !words.iter().any(|w| w.starts_with("name=")) {
            cfg.name = uci_name(cfg)?;
        }
    }
    b.name = distinct_name(&a.name, &b.name);
    let time_control = match args.limit.time_control()? {
        Some(tc) => tc,
        // Both engines on their own clocks (`tc=` at time odds): no match-wide limit needed.
        None if a.tc.is_some() && b.tc.is_some() => a.tc.unwrap_or(TimeControl::Depth(1)),
        None => bail!("give a limit: --tc, --nodes, --movetime or --depth (or tc= for each engine)"),
    };
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let openings = match &args.openings {
        Some(p) => openings::load(p)?,
        None => vec![Opening::startpos()],
    };
    let adjudication = Adjudication {
        resign: args.resign_score.zip(args.resign_moves).map(|(score_cp, moves)| ResignRule { moves, score_cp }),
        draw: args.draw_score.zip(args.draw_moves).map(|(score_cp, moves)| DrawRule {
            min_move: args.draw_after,
            moves,
            score_cp,
        }),
        max_moves: args.max_moves,
        tablebase: tablebase_adjudicator(args)?,
    };
    let learning = match &args.learn_book {
        Some(path) => {
            let learner = match &args.learn_engine {
                None => 0,
                Some(n) if *n == a.name => 0,
                Some(n) if *n == b.name => 1,
                Some(n) => bail!("--learn-engine {n:?} is not one of the engines"),
            };
            let params = LearnParams { max_ply: args.learn_depth, ..LearnParams::default() };
            Some(BookLearning { path: path.clone(), learner, params })
        }
        None => None,
    };
    let config = MatchConfig {
        engines: [a, b],
        referee: RefereeConfig {
            time_control,
            time_margin: Duration::from_millis(args.margin),
            move_timeout: Duration::from_secs(args.move_timeout.max(1)),
            adjudication,
        },
        openings,
        games: args.games,
        repeat: args.repeat,
        concurrency: args.concurrency,
        sprt: args.sprt.as_deref().map(parse_sprt).transpose()?,
        pgn_out: args.pgn.clone(),
        resume: args.resume,
        event: args.event.clone(),
        learning,
    };
    Ok(config)
}

impl MatchArgs {
    /// Whether the report is one JSON document instead of text (`--json`).
    pub fn json(&self) -> bool {
        self.json
    }
}

/// Prints the final report as `bastion match` does: text, or JSON with `json`.
pub fn print_report(report: &MatchReport, json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        print!("{}", report.final_report());
    }
    Ok(())
}

/// Runs the subcommand.
pub fn run(args: MatchArgs) -> Result<()> {
    let config = match_config(&args)?;
    let interrupt = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupt.clone();
        // A second Ctrl-C while games wind down is ignored; games in progress end within one move.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    let fancy = std::io::stderr().is_terminal();
    let planned = if config.repeat { config.games.div_ceil(2) * 2 } else { config.games };
    let bar = if fancy {
        let bar = ProgressBar::new(planned as u64);
        bar.set_style(ProgressStyle::with_template("{pos}/{len} [{elapsed_precise}] {msg}").expect("valid template"));
        bar
    } else {
        ProgressBar::hidden()
    };
    let report = run_match(&config, interrupt, |game, rep| {
        if fancy {
            bar.set_position(rep.games);
            bar.set_message(rep.summary_line());
        } else {
            eprintln!("{} - {} {} ({})", game.white, game.black, game.result(), game.reason);
            eprintln!("{}", rep.summary_line());
        }
    })?;
    bar.finish_and_clear();
    print_report(&report, args.json())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn engine_groups_follow_the_command_line() {
        let argv = v("bastion match --engine cmd=x name=A option.Hash=8 --engine=cmd=y name=B --games 2");
        let flat = v("cmd=x name=A option.Hash=8 cmd=y name=B");
        assert_eq!(group_engines(&flat, &argv), vec![v("cmd=x name=A option.Hash=8"), v("cmd=y name=B")]);
        // Without a matching command line, groups start at name=.
        let flat = v("name=A cmd=x name=B cmd=y option.Hash=1");
        assert_eq!(group_engines(&flat, &[]), vec![v("name=A cmd=x"), v("name=B cmd=y option.Hash=1")]);
    }

    #[test]
    fn equal_names_are_told_apart() {
        assert_eq!(distinct_name("Bastion", "Bastion"), "Bastion (2)");
        assert_eq!(distinct_name("A", "B"), "B");
    }

    #[test]
    fn sprt_arguments() {
        let p = parse_sprt(&v("elo0=0 elo1=5 alpha=0.05 beta=0.1")).unwrap();
        assert_eq!((p.elo0(), p.elo1(), p.beta()), (0.0, 5.0, 0.1));
        assert!(parse_sprt(&v("elo0=5 elo1=0")).is_err());
        assert!(parse_sprt(&v("gamma=1")).is_err());
        assert!(parse_sprt(&v("elo0=x")).is_err());
    }
}
