//! `bastion fortress`: fortress detection from evaluation curves over depth
//! (Guid & Bratko 2012), breakthrough search, fortress avoidance, plots, and
//! accuracy on a labelled set.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use bastion_fortress::labels::{read_labelled, LabelledPosition};
use bastion_fortress::suite::{parse_resume, remaining, suite_config};
use bastion_fortress::{
    analyse_with, write_plot, Analysis, Config, Hooks, PlotFormat, PlotKind, ProbeConfig, SuiteReport, SuiteRow,
    Thresholds,
};
use bastion_tablebase::Probers;
use bastion_uci_client::Engine;
use clap::Args;

/// The progress line of one analysis on a terminal.
const SPINNER: &str = "{spinner} {elapsed} {msg}";

/// Arguments of `bastion fortress`.
#[derive(Args, Debug)]
pub struct FortressArgs {
    /// Position to analyse (FEN). Not needed with --suite.
    fen: Option<String>,
    /// Deepest search depth D (plies).
    #[arg(long, default_value_t = Config::default().max_depth)]
    max_depth: u32,
    /// First depth recorded.
    #[arg(long, default_value_t = Config::default().min_depth)]
    min_depth: u32,
    /// K: number of best moves followed (MultiPV).
    #[arg(long = "moves", default_value_t = Config::default().multipv)]
    moves: u32,
    /// UCI engine command line (default: this binary, which speaks UCI). Give it
    /// twice or more to compare engines: each one's verdict, and whether they agree.
    #[arg(long = "engine")]
    engines: Vec<String>,
    /// Engine option NAME=VALUE (repeatable), e.g. --option Threads=1.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Write the evaluation plot here (.svg or .png).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Write the time-per-depth plot (Fig. 7) here (.svg or .png).
    #[arg(long)]
    time_plot: Option<PathBuf>,
    /// Judge the position after each top move and flag a best move that
    /// walks into a fortress.
    #[arg(long)]
    avoid: bool,
    /// Skip the breakthrough search of every legal move.
    #[arg(long)]
    no_breakthrough: bool,
    /// W: depths judged (the last W).
    #[arg(long, default_value_t = Thresholds::default().window)]
    window: u32,
    /// Largest change (pawns) of the best evaluation over the window for "flat".
    #[arg(long, default_value_t = Thresholds::default().tolerance)]
    tolerance: f64,
    /// Largest gap (pawns) between the top moves for "close together".
    #[arg(long, default_value_t = Thresholds::default().spread)]
    spread: f64,
    /// Smallest fitted rise (pawns) over the window that counts as progress.
    #[arg(long, default_value_t = Thresholds::default().rise)]
    rise: f64,
    /// Flat curves at or above this advantage (pawns) read as won plateaus;
    /// `inf` gives the pure shape criterion of Guid & Bratko 2012, §3.
    #[arg(long, default_value_t = Thresholds::default().decisive)]
    decisive: f64,
    /// A rise counts as progress only when it ends at least this far ahead (pawns).
    #[arg(long, default_value_t = Thresholds::default().progress_level)]
    progress_level: f64,
    /// Deepest depths scoring exactly 0.00 that prove a fortress (0 disables).
    #[arg(long, default_value_t = Thresholds::default().draw_depths)]
    draw_depths: u32,
    /// Material edge (P=1 N=B=3 R=5 Q=9) that makes a side "ahead".
    #[arg(long, default_value_t = Thresholds::default().material_edge)]
    material_edge: i32,
    /// Evaluation (pawns) that makes a side "ahead" regardless of material.
    #[arg(long, default_value_t = Thresholds::default().eval_edge)]
    eval_edge: f64,
    /// Skip the progress test (searches with the fifty-move counter advanced).
    #[arg(long)]
    no_probe: bool,
    /// Progress test: moves left before the fifty-move draw, comma-separated, ascending.
    #[arg(long, value_delimiter = ',', default_values_t = ProbeConfig::default().moves)]
    probe_moves: Vec<u32>,
    /// Progress test: irreversible changes followed when the edge holds.
    #[arg(long, default_value_t = ProbeConfig::default().stages)]
    probe_stages: u32,
    /// Progress test: moves left tried once more when every k collapses although
    /// the curves rise (a slow win); 0 disables.
    #[arg(long, default_value_t = ProbeConfig::default().extend)]
    probe_extend: u32,
    /// Directory holding Syzygy WDL/DTZ files (`*.rtbw`, `*.rtbz`): positions they
    /// cover (the position, or one the progress test reaches after a capture or pawn
    /// move) are decided by the tables' value.
    #[arg(long, value_name = "DIR")]
    syzygy_dir: Option<PathBuf>,
    /// Directory holding Bastion DTM tablebase files (`*.btb`, made by `bastion tb`),
    /// used like --syzygy-dir (and first where both cover a position).
    #[arg(long, value_name = "DIR")]
    tb_dir: Option<PathBuf>,
    /// Endings of at most MEN men and at most one pawn that the analysis reaches
    /// (the position, or the progress test's line after a capture or pawn move)
    /// get their DTM table generated in memory (about a second for four men
    /// without pawns, ten with a pawn) and are decided by it, as with --tb-dir.
    /// Asked after the tables of --tb-dir and --syzygy-dir; 0 turns it off.
    #[arg(long, value_name = "MEN", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=4))]
    small_tables: u32,
    /// Time limit for one engine search in seconds (depths reached are kept).
    #[arg(long, default_value_t = 120)]
    search_limit: u64,
    /// Run a labelled set (label, id, FEN, source; tab-separated) and report accuracy.
    #[arg(long, conflicts_with_all = ["fen", "plot", "time_plot", "avoid"])]
    suite: Option<PathBuf>,
    /// With --suite: append each finished position as a JSON line here and
    /// skip positions already in it (resume after an interruption).
    #[arg(long, requires = "suite")]
    out: Option<PathBuf>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the subcommand.
pub fn run(args: FortressArgs) -> Result<()> {
    if args.suite.is_some() {
        return run_suite(&args);
    }
    let config = config_of(&args);
    config.validate().map_err(|e| anyhow::anyhow!(e))?;
    let Some(fen) = &args.fen else {
        bail!("give a FEN to analyse, or --suite FILE");
    };
    bastion_core::Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))?;
    for path in [&args.plot, &args.time_plot].into_iter().flatten() {
        plot_format(path)?;
    }
    let tables = open_tables(&args)?;
    if args.engines.len() > 1 {
        return run_engines(fen, &args, &config, tables.as_ref());
    }
    let mut engine = start_engine(&args, args.engines.first())?;
    let bar = bastion_progress::spinner(!args.json, SPINNER);
    let hooks = Hooks { tablebase: tables.as_ref().map(|t| t as _), ..Hooks::default() };
    let analysis =
        analyse_with(fen, &config, &mut engine, hooks, &mut |s| bar.set_message(s.describe(config.max_depth)))?;
    bar.finish_and_clear();
    if let Some(path) = &args.plot {
        save_plot(&analysis, PlotKind::Evaluations, path)?;
    }
    if let Some(path) = &args.time_plot {
        save_plot(&analysis, PlotKind::Time, path)?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&analysis)?);
    } else {
        print!("{}", analysis.to_text());
    }
    Ok(())
}

fn config_of(args: &FortressArgs) -> Config {
    Config {
        min_depth: args.min_depth,
        max_depth: args.max_depth,
        multipv: args.moves,
        thresholds: Thresholds {
            window: args.window,
            tolerance: args.tolerance,
            spread: args.spread,
            rise: args.rise,
            decisive: args.decisive,
            progress_level: args.progress_level,
            draw_depths: args.draw_depths,
            material_edge: args.material_edge,
            eval_edge: args.eval_edge,
        },
        breakthrough: !args.no_breakthrough,
        avoid: args.avoid,
        search_limit_ms: args.search_limit.saturating_mul(1000),
        probe: ProbeConfig {
            enabled: !args.no_probe,
            moves: args.probe_moves.clone(),
            stages: args.probe_stages,
            extend: args.probe_extend,
            ..ProbeConfig::default()
        },
        ..Config::default()
    }
}

/// The tables named by --tb-dir and --syzygy-dir, and those --small-tables
/// generates on demand; `None` when there are none of either.
fn open_tables(args: &FortressArgs) -> Result<Option<Probers>> {
    let on_demand = (args.small_tables >= 3).then_some(args.small_tables);
    if args.tb_dir.is_none() && args.syzygy_dir.is_none() && on_demand.is_none() {
        return Ok(None);
    }
    let dtm: Vec<&Path> = args.tb_dir.iter().map(PathBuf::as_path).collect();
    let mut probers = Probers::open(&dtm, args.syzygy_dir.as_deref()).context("opening endgame tables")?;
    probers.set_on_demand(on_demand);
    Ok(Some(probers))
}

/// One engine's verdict in a comparison of several.
#[derive(serde::Serialize)]
struct EngineVerdict {
    /// The command line given.
    command: String,
    /// The whole analysis.
    analysis: Analysis,
}

/// Analyses `fen` with every engine in turn and reports whether the verdicts agree.
fn run_engines(fen: &str, args: &FortressArgs, config: &Config, tables: Option<&Probers>) -> Result<()> {
    if args.plot.is_some() || args.time_plot.is_some() {
        bail!("--plot and --time-plot take one engine");
    }
    let mut results = Vec::new();
    for cmd in &args.engines {
        let mut engine = start_engine(args, Some(cmd))?;
        let bar = bastion_progress::spinner(!args.json, SPINNER);
        let hooks = Hooks { tablebase: tables.map(|t| t as _), ..Hooks::default() };
        let analysis = analyse_with(fen, config, &mut engine, hooks, &mut |s| {
            bar.set_message(format!("{cmd}: {}", s.describe(config.max_depth)))
        })
        .with_context(|| format!("analysing with {cmd}"))?;
        bar.finish_and_clear();
        results.push(EngineVerdict { command: cmd.clone(), analysis });
    }
    let agree = results.windows(2).all(|w| w[0].analysis.verdict == w[1].analysis.verdict);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "engines": results, "agree": agree }))?);
        return Ok(());
    }
    for r in &results {
        println!("== {} ({})", r.analysis.engine, r.command);
        print!("{}", r.analysis.to_text());
        println!();
    }
    println!("{}", agreement_line(&results, agree));
    Ok(())
}

/// The closing line of an engine comparison.
fn agreement_line(results: &[EngineVerdict], agree: bool) -> String {
    let each: Vec<String> = results
        .iter()
        .map(|r| format!("{}: {} ({})", r.analysis.engine, r.analysis.verdict, r.analysis.evidence.basis))
        .collect();
    format!("engines {}: {}", if agree { "agree" } else { "DISAGREE" }, each.join("; "))
}

fn start_engine(args: &FortressArgs, command: Option<&String>) -> Result<Engine> {
    let mut engine = match command {
        Some(cmd) => Engine::from_command_line(cmd).with_context(|| format!("starting engine {cmd:?}"))?,
        None => {
            // This very binary speaks UCI when run without arguments.
            let me = std::env::current_exe().context("locating the bastion binary")?;
            Engine::spawn(&me.to_string_lossy(), &[])
                .context("starting bastion's own engine (use --engine to pick another)")?
        }
    };
    for opt in &args.options {
        let (name, value) = opt.split_once('=').with_context(|| format!("--option wants NAME=VALUE, got {opt:?}"))?;
        engine.set_option(name.trim(), value.trim())?;
    }
    Ok(engine)
}

fn plot_format(path: &Path) -> Result<PlotFormat> {
    PlotFormat::of(path).with_context(|| format!("plot file {} must end in .svg or .png", path.display()))
}

fn save_plot(analysis: &Analysis, kind: PlotKind, path: &Path) -> Result<()> {
    write_plot(analysis, kind, plot_format(path)?, path).with_context(|| format!("writing {}", path.display()))
}

/// A `--suite` run as the arguments set it up: the labelled set, the rows already in `--out`
/// (resumed), the configuration every position runs with and the endgame tables.
/// `bastion cluster fortress` sets up its runs with this too, on every rank.
pub struct SuiteSetup {
    /// The labelled set.
    pub set: Vec<LabelledPosition>,
    /// Rows of an earlier run read back from `--out`.
    pub rows: Vec<SuiteRow>,
    /// The configuration of every analysis.
    pub config: Config,
    /// The tables of --tb-dir and --syzygy-dir.
    pub tables: Option<Probers>,
}

/// The set-up of `--suite` (an error without it). Only `with_set` reads the set and the resume
/// file; a cluster's worker ranks need neither.
pub fn suite_setup(args: &FortressArgs, with_set: bool) -> Result<SuiteSetup> {
    let config = config_of(args);
    config.validate().map_err(|e| anyhow::anyhow!(e))?;
    let path = args.suite.as_ref().context("give the labelled set with --suite FILE")?;
    if args.engines.len() > 1 {
        bail!("--suite runs one engine at a time");
    }
    let (mut set, mut rows) = (Vec::new(), Vec::new());
    if with_set {
        set = read_labelled(path)?;
        if set.is_empty() {
            bail!("{} holds no positions", path.display());
        }
        if let Some(out) = args.out.as_ref().filter(|out| out.exists()) {
            let text = bastion_core::io::read_to_string_bounded(out, bastion_core::io::TEXT_LIMIT)
                .map_err(bastion_core::io::BoundedReadError::into_io)
                .with_context(|| format!("reading {}", out.display()))?;
            rows = parse_resume(&text);
        }
    }
    Ok(SuiteSetup { set, rows, config: suite_config(&config), tables: open_tables(args)? })
}

/// The suite's engine: `--engine` or this program, with the `--option`s set.
pub fn suite_engine(args: &FortressArgs) -> Result<Engine> {
    start_engine(args, args.engines.first())
}

/// The `--out` file, opened for appending rows.
pub fn suite_sink(args: &FortressArgs) -> Result<Option<std::fs::File>> {
    let Some(out) = &args.out else { return Ok(None) };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("opening {}", out.display()))?;
    Ok(Some(file))
}

/// Appends a finished row to the `--out` file, flushed so that an interrupted run resumes
/// from it.
pub fn write_row(sink: &mut std::fs::File, row: &SuiteRow) -> Result<()> {
    writeln!(sink, "{}", serde_json::to_string(row)?)?;
    sink.flush()?;
    Ok(())
}

/// Prints the suite's report: text, or JSON with `--json`.
pub fn print_suite_report(args: &FortressArgs, report: &SuiteReport) -> Result<()> {
    if args.json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(())
}

impl FortressArgs {
    /// Whether the report is one JSON document (`--json`).
    pub fn json(&self) -> bool {
        self.json
    }
}

/// Analyses one position of a suite: its row of the report.
pub fn analyse_row(
    engine: &mut Engine,
    config: &Config,
    tables: Option<&Probers>,
    p: &LabelledPosition,
) -> Result<SuiteRow> {
    let hooks = Hooks { tablebase: tables.map(|t| t as _), ..Hooks::default() };
    let a = analyse_with(&p.fen, config, engine, hooks, &mut |_| {}).with_context(|| format!("analysing {}", p.id))?;
    Ok(SuiteRow::new(p, &a))
}

fn run_suite(args: &FortressArgs) -> Result<()> {
    let SuiteSetup { set, mut rows, config, tables } = suite_setup(args, true)?;
    let todo = remaining(&set, &rows);
    let mut engine = suite_engine(args)?;
    let engine_name = engine.name().unwrap_or("unknown engine").to_owned();
    let bar = bastion_progress::bar(!args.json(), set.len() as u64, "{bar:30} {pos}/{len} {msg}");
    bar.set_prefix("positions");
    bar.set_position((set.len() - todo.len()) as u64);
    let mut sink = suite_sink(args)?;
    for p in todo {
        bar.set_message(p.id.clone());
        let row = analyse_row(&mut engine, &config, tables.as_ref(), p)?;
        if let Some(f) = sink.as_mut() {
            write_row(f, &row)?;
        }
        rows.push(row);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let report = SuiteReport::new(engine_name, &config, &set, rows);
    print_suite_report(args, &report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: FortressArgs,
    }

    const FEN: &str = "8/k7/8/P7/8/2K5/3B4/8 w - - 0 1";

    #[test]
    fn probe_options_reach_the_config() {
        let defaults = config_of(&Cli::parse_from(["fortress", FEN]).args);
        assert_eq!(defaults.probe, ProbeConfig::default());
        let cli = Cli::parse_from(["fortress", FEN, "--probe-moves", "2,4,6", "--probe-stages", "2"]);
        let c = config_of(&cli.args);
        assert_eq!((c.probe.moves.clone(), c.probe.stages, c.probe.enabled), (vec![2, 4, 6], 2, true));
        assert!(c.validate().is_ok());
        assert!(!config_of(&Cli::parse_from(["fortress", FEN, "--no-probe"]).args).probe.enabled);
        // Moves left must ascend, and stay below the fifty-move limit.
        for bad in ["5,3", "0", "50"] {
            let c = config_of(&Cli::parse_from(["fortress", FEN, "--probe-moves", bad]).args);
            assert!(c.validate().is_err(), "{bad}");
        }
    }

    #[test]
    fn tables_extension_and_several_engines_parse() {
        let cli = Cli::parse_from(["fortress", FEN, "--probe-extend", "12", "--engine", "a", "--engine", "b"]);
        assert_eq!(config_of(&cli.args).probe.extend, 12);
        assert_eq!(cli.args.engines, vec!["a".to_owned(), "b".to_owned()]);
        // Small tables are generated on demand by default, and only when asked.
        let tables = open_tables(&cli.args).unwrap().expect("small tables by default");
        assert_eq!(tables.on_demand().map(|t| t.generated().len()), Some(0), "nothing generated before a probe");
        let off = Cli::parse_from(["fortress", FEN, "--small-tables", "0"]);
        assert!(open_tables(&off.args).unwrap().is_none(), "no tables asked for");
        assert!(Cli::try_parse_from(["fortress", FEN, "--small-tables", "5"]).is_err(), "five men take minutes");
        // A table directory that holds no tables is a clear error, not a panic.
        let empty = tempfile::tempdir().unwrap();
        let dir = empty.path().display().to_string();
        let cli = Cli::parse_from(["fortress", FEN, "--syzygy-dir", dir.as_str()]);
        let Err(err) = open_tables(&cli.args) else { panic!("an empty directory opened as tables") };
        assert!(format!("{err:#}").contains("Syzygy"), "{err:#}");
        // An extension not beyond the largest k is refused.
        let c = config_of(&Cli::parse_from(["fortress", FEN, "--probe-extend", "5"]).args);
        assert!(c.validate().is_err());
    }
}
