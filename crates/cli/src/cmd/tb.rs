//! `bastion tb`: generate, probe, verify and describe endgame tablebases.

use crate::plural::count;
use anyhow::{bail, Context, Result};
use bastion_core::Position;
use bastion_tablebase::driver::{self, build_metric_with, peak_rss_bytes, progress_bar, BuildRecord, Loader};
use bastion_tablebase::format::TableFile;
use bastion_tablebase::report::{GenReport, ProbeError, ProbeReport};
use bastion_tablebase::{stats, verify, Bitbase, Material, Metric, Tablebases};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

mod speed;
mod syzygy;
use speed::SpeedArgs;
use syzygy::SyzygyArgs;

/// Arguments of `bastion tb`.
#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Subcommand, Debug)]
enum TbCommand {
    /// Generate DTM (or, with --metric dtc|dtz, DTC or DTZ) tables (sub-endings first; finished files are skipped).
    Gen(GenArgs),
    /// Value, DTM (or DTC, DTZ with --metric), every legal move's value and the optimal line of a position.
    Probe(ProbeArgs),
    /// Wins/draws/losses per side to move, DTM (or DTC, DTZ) histogram, longest win.
    Stats(EndingArgs),
    /// Check every position against the minimax of its successors.
    Verify(VerifyArgs),
    /// Derive 2-bit WDL bitbases (`.bwdl`) from DTM tables.
    Bitbase(BitbaseArgs),
    /// Time bitbase WDL probes against DTM table probes on random positions.
    Speed(SpeedArgs),
    /// Probe standard Syzygy WDL/DTZ files.
    Syzygy(SyzygyArgs),
}

#[derive(Args, Debug)]
struct GenArgs {
    /// Ending such as KRKN (the stronger side first; any order is accepted).
    ending: Option<String>,
    /// Generate every ending with this many men (3, 4 or 5).
    #[arg(long, conflicts_with = "ending")]
    all: Option<usize>,
    /// Directory for the table files.
    #[arg(long, default_value = "tables")]
    dir: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Leave a checkpoint in --dir at most this often while a table is generated (between
    /// two levels; 0: before every level); a rerun goes on from the latest. Removed once the table
    /// is written.
    #[arg(long, default_value = "300s")]
    checkpoint_every: String,
    /// What the tables count: dtm (plies to mate, files KRKN.btb), dtc (plies to
    /// a capture, promotion or mate that keeps the win, files KRKN.dtc.btb) or dtz
    /// (plies to a capture, pawn move or mate that keeps the win, as Syzygy's DTZ
    /// counts without its rounding, files KPK.dtz.btb; the DTM tables are made or
    /// read first).
    #[arg(long, default_value = "dtm")]
    metric: Metric,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    #[command(flatten)]
    ending: EndingArgs,
    /// Check only every N-th index of each side to move (a sample, for 5-man tables).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
}

#[derive(Args, Debug)]
struct BitbaseArgs {
    #[command(flatten)]
    ending: EndingArgs,
    /// Directory for the `.bwdl` files (default: --dir).
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct ProbeArgs {
    /// Position in FEN.
    fen: String,
    /// Directory with the table files.
    #[arg(long, default_value = "tables")]
    dir: PathBuf,
    /// Which tables to read: dtm (distance to mate), dtc (distance to conversion) or
    /// dtz (distance to zeroing).
    #[arg(long, default_value = "dtm")]
    metric: Metric,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct EndingArgs {
    /// Ending such as KRKN.
    ending: Option<String>,
    /// Every ending with this many men that has a file.
    #[arg(long, conflicts_with = "ending")]
    all: Option<usize>,
    /// Directory with the table files.
    #[arg(long, default_value = "tables")]
    dir: PathBuf,
    /// Which tables to read: dtm (distance to mate), dtc (distance to conversion) or
    /// dtz (distance to zeroing).
    #[arg(long, default_value = "dtm")]
    metric: Metric,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the subcommand.
pub fn run(args: TbArgs) -> Result<()> {
    match args.command {
        TbCommand::Gen(a) => with_threads(a.threads, || gen(a)),
        TbCommand::Probe(a) => probe(a),
        TbCommand::Stats(a) => with_threads(a.threads, || stats_cmd(a)),
        TbCommand::Verify(a) => with_threads(a.ending.threads, || verify_cmd(a)),
        TbCommand::Bitbase(a) => bitbase_cmd(a),
        TbCommand::Syzygy(a) => syzygy::run(a),
        TbCommand::Speed(a) => speed::run(a),
    }
}

fn with_threads(threads: Option<usize>, f: impl FnOnce() -> Result<()> + Send) -> Result<()> {
    driver::with_threads(threads, f).map_err(|e| anyhow::anyhow!("--threads: {e}"))?
}

fn targets(ending: &Option<String>, all: Option<usize>) -> Result<Vec<Material>> {
    match (ending, all) {
        (Some(e), None) => Ok(vec![Material::parse(e)?.normalized().0]),
        (None, Some(n)) if (3..=5).contains(&n) => Ok(Material::all_with(n)),
        (None, Some(n)) => bail!("--all takes 3, 4 or 5 (got {n})"),
        _ => bail!("name an ending (e.g. KRKN) or give --all N"),
    }
}

fn gen(a: GenArgs) -> Result<()> {
    let targets = targets(&a.ending, a.all)?;
    // A six-man table can need more memory than the machine has: say so now, not after
    // its sub-tables, or by being killed.
    if let Some(available) = driver::available_memory_bytes() {
        if let Some(m) = targets.iter().find(|m| driver::working_bytes(m) > available) {
            bail!(
                "{} needs {:.1} GB of working memory and {:.1} GB are available here; \
                 `bastion cluster tb` splits it over the memory of several machines",
                m.name(),
                driver::working_bytes(m) as f64 / 1e9,
                available as f64 / 1e9
            );
        }
    }
    std::fs::create_dir_all(&a.dir).with_context(|| format!("creating {}", a.dir.display()))?;
    let threads = driver::current_threads();
    if !a.json {
        println!("generating into {} with {}", a.dir.display(), count(threads as u64, "thread", "threads"));
    }
    if !a.json && a.metric != Metric::Dtm {
        println!("metric: {} ({} files)", a.metric.description(), a.metric.file_suffix());
    }
    let every = bastion_core::duration::parse_duration(&a.checkpoint_every).context("--checkpoint-every")?;
    let start = std::time::Instant::now();
    let json = a.json;
    let records = build_metric_with(&targets, &a.dir, a.metric, !json, every, |r: &BuildRecord| {
        if !json {
            println!("{}", r.to_line());
        }
    })?;
    let report = GenReport {
        threads,
        seconds: start.elapsed().as_secs_f64(),
        peak_rss_bytes: peak_rss_bytes(),
        endings: &records,
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{}", report.to_line());
    }
    Ok(())
}

fn probe(a: ProbeArgs) -> Result<()> {
    let pos = Position::from_fen(&a.fen).with_context(|| format!("bad FEN {:?}", a.fen))?;
    if !pos.castling().is_empty() {
        bail!("positions with castling rights are not in the tables");
    }
    let ending = Material::of(&pos);
    if ending.count() > 6 {
        bail!("{} has more men than any table", ending.name());
    }
    let needed = ending.normalized().0.name();
    if !a.dir.is_dir() {
        bail!("no table directory {} ({}, or pass --dir)", a.dir.display(), gen_hint(&a.dir, &needed, a.metric));
    }
    let tbs = Tablebases::open_metric(&[&a.dir], a.metric)
        .with_context(|| format!("opening tables in {}", a.dir.display()))?;
    let report = match ProbeReport::probe(&tbs, &pos) {
        Ok(report) => report,
        Err(ProbeError::NoTable) => {
            let kind = if a.metric == Metric::Dtm { String::new() } else { format!(" {}", a.metric) };
            bail!("no{kind} table for {needed} in {} ({})", a.dir.display(), gen_hint(&a.dir, &needed, a.metric))
        }
        Err(ProbeError::NoSuccessorTable) => bail!("a table needed for the successors is missing"),
        Err(ProbeError::Tables(e)) => return Err(e.into()),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(())
}

fn files_for(e: &EndingArgs) -> Result<Vec<Material>> {
    let t = targets(&e.ending, e.all)?;
    let exists = |m: &Material| e.dir.join(e.metric.file_name(m)).exists();
    Ok(if e.all.is_some() { t.into_iter().filter(exists).collect() } else { t })
}

/// The command that makes the missing table for `ending` in `dir`, for error messages.
fn gen_hint(dir: &Path, ending: &str, metric: Metric) -> String {
    let flag = if metric == Metric::Dtm { String::new() } else { format!(" --metric {metric}") };
    format!("generate it with `bastion tb gen {ending}{flag} --dir {}`", dir.display())
}

fn open_table(dir: &Path, m: &Material, metric: Metric) -> Result<TableFile> {
    let path = dir.join(metric.file_name(m));
    if !path.exists() {
        bail!("no table {} ({})", path.display(), gen_hint(dir, &m.name(), metric));
    }
    Ok(TableFile::open_metric(&path, metric)?)
}

fn stats_cmd(a: EndingArgs) -> Result<()> {
    let mut all = Vec::new();
    for m in files_for(&a)? {
        let f = open_table(&a.dir, &m, a.metric)?;
        let s = stats::stats(&f.load()?);
        if !a.json {
            print!("{}", s.to_text(f.file_len()));
        }
        all.push(s);
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    }
    Ok(())
}

fn verify_cmd(v: VerifyArgs) -> Result<()> {
    let a = v.ending;
    let mut loader = Loader::with_metric(&a.dir, a.metric);
    let mut reports = Vec::new();
    let mut failed = 0;
    for m in files_for(&a)? {
        open_table(&a.dir, &m, a.metric)?;
        // Loaded once and shared: a 5-man table with pawns is 0.8 GB in memory.
        let t = loader.load(&m)?;
        let mut set = loader.set_for(&m)?;
        set.insert(t.clone());
        let pb = progress_bar(!a.json, &m.name());
        let start = std::time::Instant::now();
        let r = verify::verify_every(&t, &set, &pb, v.every);
        pb.finish_and_clear();
        if !r.ok() {
            failed += 1;
        }
        if !a.json {
            print!("{}", r.to_text(v.every, start.elapsed().as_secs_f64()));
        }
        reports.push(r);
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&reports)?);
    }
    if failed > 0 {
        bail!("{failed} table(s) failed verification");
    }
    Ok(())
}

fn bitbase_cmd(args: BitbaseArgs) -> Result<()> {
    let a = args.ending;
    let dir = args.out.unwrap_or_else(|| a.dir.clone());
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut out = Vec::new();
    for m in files_for(&a)? {
        let t = open_table(&a.dir, &m, a.metric)?.load()?;
        let b = Bitbase::from_table(&t);
        let path = b.write(&dir)?;
        if !a.json {
            println!("{:<7} {} ({} bytes)", m.name(), path.display(), b.bytes());
        }
        out.push((m.name(), path.display().to_string(), b.bytes()));
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    }
    Ok(())
}
