//! `bastion fortress`: fortress detection from evaluation curves over depth
//! (Guid & Bratko 2012), breakthrough search, fortress avoidance, plots, and
//! accuracy on a labelled set.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use bastion_fortress::labels::{read_labelled, Label, LabelledPosition};
use bastion_fortress::{
    analyse_with_progress, render_png, render_svg, render_time_svg, Analysis, Config, PlotKind, Stage, Thresholds,
    Verdict,
};
use bastion_uci::Engine;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

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
    /// UCI engine command line (default: this binary, which speaks UCI).
    #[arg(long)]
    engine: Option<String>,
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
    /// `inf` gives the paper's pure shape criterion.
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
    let config = config_of(&args);
    config.validate().map_err(|e| anyhow::anyhow!(e))?;
    if let Some(suite) = &args.suite {
        return run_suite(suite, &args, &config);
    }
    let Some(fen) = &args.fen else {
        bail!("give a FEN to analyse, or --suite FILE");
    };
    bastion_core::Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))?;
    for path in [&args.plot, &args.time_plot].into_iter().flatten() {
        plot_kind_of(path)?;
    }
    let mut engine = start_engine(&args)?;
    let bar = spinner(args.json);
    let analysis =
        analyse_with_progress(fen, &config, &mut engine, &mut |s| bar.set_message(stage_text(&s, config.max_depth)))?;
    bar.finish_and_clear();
    if let Some(path) = &args.plot {
        write_plot(&analysis, PlotKind::Evaluations, path)?;
    }
    if let Some(path) = &args.time_plot {
        write_plot(&analysis, PlotKind::Time, path)?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&analysis)?);
    } else {
        print_text(&analysis);
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
        ..Config::default()
    }
}

fn start_engine(args: &FortressArgs) -> Result<Engine> {
    let mut engine = match &args.engine {
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

fn spinner(hidden: bool) -> ProgressBar {
    if hidden {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

fn stage_text(s: &Stage, max: u32) -> String {
    match s {
        Stage::Main { depth } => format!("main search: depth {depth}/{max}"),
        Stage::Breakthrough { index, total } => format!("breakthrough search: move {index}/{total}"),
        Stage::Replies { san } => format!("following replies to {san}"),
        Stage::Avoid { index, total } => format!("judging top move {index}/{total}"),
    }
}

fn plot_kind_of(path: &Path) -> Result<bool> {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("svg") => Ok(false),
        Some("png") => Ok(true),
        _ => bail!("plot file {} must end in .svg or .png", path.display()),
    }
}

fn write_plot(analysis: &Analysis, kind: PlotKind, path: &Path) -> Result<()> {
    if plot_kind_of(path)? {
        render_png(analysis, kind, path).with_context(|| format!("writing {}", path.display()))?;
    } else {
        let svg = match kind {
            PlotKind::Evaluations => render_svg(analysis),
            PlotKind::Time => render_time_svg(analysis),
        };
        std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn print_text(a: &Analysis) {
    println!("position  {}", a.fen);
    println!(
        "engine    {} (depths {}-{}, MultiPV {})",
        a.engine, a.config.min_depth, a.config.max_depth, a.config.multipv
    );
    print!("depth");
    for c in &a.curves {
        print!(" {:>8}", c.san);
    }
    println!(" {:>9}", "time(ms)");
    for p in &a.principal {
        print!("{:>5}", p.depth);
        for c in &a.curves {
            print!(" {:>8}", c.at(p.depth).map_or("-".into(), |e| e.display()));
        }
        let ms = a.times.iter().find(|t| t.depth == p.depth).map_or(0, |t| t.ms);
        println!(" {ms:>9}");
    }
    let e = &a.evidence;
    println!("\nverdict   {}: {}", a.verdict.to_string().to_uppercase(), e.reason);
    println!(
        "evidence  ahead {} (material {:+}), final {}, window {}-{}: range {:.2}, rise {:+.2}, spread {:.2} over {} moves",
        e.ahead.map_or("nobody".into(), |s| format!("{s:?}").to_lowercase()),
        e.material,
        e.final_eval,
        e.window_from,
        e.final_depth,
        e.range,
        e.rise,
        e.spread,
        e.moves_compared
    );
    if let (Some(d), Some(ms)) = (a.verdict_depth, a.verdict_ms) {
        println!("stable    verdict unchanged from depth {d} on ({ms} ms of search)");
    }
    if a.truncated_searches > 0 {
        println!("note      {} search(es) hit the time limit; their reached depths were used", a.truncated_searches);
    }
    if a.breakthrough_searched {
        if a.breakthroughs.is_empty() {
            println!("breakthrough  none: no legal move's curve rises consistently");
        }
        for b in &a.breakthroughs {
            let last = b.curve.last().map_or("-".into(), |p| p.eval.display());
            let replies = match b.replies_rise {
                Some(true) => format!(
                    "opponent's best replies ({}) keep rising too",
                    b.replies.iter().map(|r| r.san.as_str()).collect::<Vec<_>>().join(", ")
                ),
                Some(false) => "but the opponent's best replies do not keep rising".into(),
                None => "replies not checked".into(),
            };
            println!(
                "breakthrough  {} rises to {last}{}; {replies}",
                b.curve.san,
                if b.overtakes { " and overtakes the top moves" } else { "" }
            );
        }
    }
    if let Some(av) = &a.avoidance {
        for j in &av.judged {
            println!("after {:<8} {:>7}  {:<8} {}", j.san, j.eval.display(), j.verdict, j.reason);
        }
        if av.best_is_fortress {
            match &av.alternative {
                Some(alt) => println!(
                    "avoid     the best move {} leads into a fortress; play {} ({}) to keep progress",
                    av.judged[0].san,
                    alt.san,
                    alt.eval.display()
                ),
                None => println!(
                    "avoid     the best move {} leads into a fortress, and no top move keeps progress",
                    av.judged[0].san
                ),
            }
        } else {
            println!("avoid     the best move does not lead into a fortress");
        }
    }
}

/// One finished position of a suite run (also the resume-file line).
#[derive(Serialize, Deserialize)]
struct SuiteRow {
    id: String,
    label: Label,
    verdict: Verdict,
    correct: bool,
    final_eval: String,
    range: f64,
    rise: f64,
    spread: f64,
    verdict_depth: Option<u32>,
    verdict_ms: Option<u64>,
    total_ms: u64,
    reason: String,
}

#[derive(Serialize)]
struct SuiteReport {
    engine: String,
    max_depth: u32,
    multipv: u32,
    thresholds: Thresholds,
    positions: usize,
    correct: usize,
    accuracy: f64,
    fortress_called_fortress: usize,
    fortresses: usize,
    progress_called_progress: usize,
    progresses: usize,
    median_verdict_depth: Option<u32>,
    median_verdict_ms: Option<u64>,
    rows: Vec<SuiteRow>,
}

fn run_suite(path: &Path, args: &FortressArgs, config: &Config) -> Result<()> {
    let set = read_labelled(path)?;
    if set.is_empty() {
        bail!("{} holds no positions", path.display());
    }
    // The suite measures the verdict; the breakthrough search is not scored.
    let config = Config { breakthrough: false, ..config.clone() };
    let mut rows: Vec<SuiteRow> = Vec::new();
    if let Some(out) = &args.out {
        if out.exists() {
            let text = std::fs::read_to_string(out).with_context(|| format!("reading {}", out.display()))?;
            // A line cut short by an interruption is simply redone.
            rows.extend(text.lines().filter_map(|l| serde_json::from_str::<SuiteRow>(l).ok()));
        }
    }
    let done: HashSet<String> = rows.iter().map(|r| r.id.clone()).collect();
    let todo: Vec<&LabelledPosition> = set.iter().filter(|p| !done.contains(&p.id)).collect();
    let mut engine = start_engine(args)?;
    let engine_name = engine.name().unwrap_or("unknown engine").to_owned();
    let bar = if args.json { ProgressBar::hidden() } else { ProgressBar::new(set.len() as u64) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(done.len() as u64);
    let mut sink = match &args.out {
        Some(out) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(out)
                .with_context(|| format!("opening {}", out.display()))?,
        ),
        None => None,
    };
    for p in todo {
        bar.set_message(p.id.clone());
        let a = analyse_with_progress(&p.fen, &config, &mut engine, &mut |_| {})
            .with_context(|| format!("analysing {}", p.id))?;
        let want = match p.label {
            Label::Fortress => Verdict::Fortress,
            Label::Progress => Verdict::Progress,
        };
        let row = SuiteRow {
            id: p.id.clone(),
            label: p.label,
            verdict: a.verdict,
            correct: a.verdict == want,
            final_eval: a.evidence.final_eval.clone(),
            range: a.evidence.range,
            rise: a.evidence.rise,
            spread: a.evidence.spread,
            verdict_depth: a.verdict_depth,
            verdict_ms: a.verdict_ms,
            total_ms: a.elapsed_ms,
            reason: a.evidence.reason.clone(),
        };
        if let Some(f) = sink.as_mut() {
            writeln!(f, "{}", serde_json::to_string(&row)?)?;
            f.flush()?;
        }
        rows.push(row);
        bar.inc(1);
    }
    bar.finish_and_clear();
    // Report in the file's order.
    rows.sort_by_key(|r| set.iter().position(|p| p.id == r.id).unwrap_or(usize::MAX));
    rows.retain(|r| set.iter().any(|p| p.id == r.id));
    let count = |l: Label, ok: bool| rows.iter().filter(|r| r.label == l && (!ok || r.correct)).count();
    let median = |mut v: Vec<u64>| -> Option<u64> {
        v.sort_unstable();
        v.get(v.len() / 2).copied()
    };
    let correct_rows: Vec<&SuiteRow> = rows.iter().filter(|r| r.correct).collect();
    let report = SuiteReport {
        engine: engine_name,
        max_depth: config.max_depth,
        multipv: config.multipv,
        thresholds: config.thresholds,
        positions: rows.len(),
        correct: rows.iter().filter(|r| r.correct).count(),
        accuracy: rows.iter().filter(|r| r.correct).count() as f64 / rows.len().max(1) as f64,
        fortress_called_fortress: count(Label::Fortress, true),
        fortresses: count(Label::Fortress, false),
        progress_called_progress: count(Label::Progress, true),
        progresses: count(Label::Progress, false),
        median_verdict_depth: median(correct_rows.iter().filter_map(|r| r.verdict_depth.map(u64::from)).collect())
            .map(|d| d as u32),
        median_verdict_ms: median(correct_rows.iter().filter_map(|r| r.verdict_ms).collect()),
        rows,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "{:<22} {:<9} {:<9} {:>8} {:>6} {:>6} {:>6} {:>6} {:>8}",
        "id", "label", "verdict", "final", "range", "rise", "spread", "v.dep", "v.ms"
    );
    for r in &report.rows {
        println!(
            "{:<22} {:<9} {:<9} {:>8} {:>6.2} {:>+6.2} {:>6.2} {:>6} {:>8} {}",
            r.id,
            format!("{:?}", r.label).to_lowercase(),
            r.verdict.to_string(),
            r.final_eval,
            r.range,
            r.rise,
            r.spread,
            r.verdict_depth.map_or("-".into(), |d| d.to_string()),
            r.verdict_ms.map_or("-".into(), |d| d.to_string()),
            if r.correct { "" } else { "  <-- wrong" }
        );
    }
    println!(
        "\n{} of {} correct ({:.0}%): fortresses {}/{}, progress {}/{}; engine {}, depth {}, MultiPV {}",
        report.correct,
        report.positions,
        100.0 * report.accuracy,
        report.fortress_called_fortress,
        report.fortresses,
        report.progress_called_progress,
        report.progresses,
        report.engine,
        report.max_depth,
        report.multipv
    );
    if let (Some(d), Some(ms)) = (report.median_verdict_depth, report.median_verdict_ms) {
        println!("median depth to a stable correct verdict: {d} ({ms} ms of search)");
    }
    Ok(())
}
