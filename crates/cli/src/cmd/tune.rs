//! `bastion tune`: Texel tuning of the evaluation weights.
//!
//! `bastion tune --generate 2000 --data tune.csv` plays self-play games and writes
//! quiet positions with results (resumable: rerunning continues with missing games;
//! a `.bin` data file gets 32-byte packed records, see `bastion_train::packed`);
//! `bastion tune --data tune.csv --out params.rs` fits the weights and writes Rust
//! source for `crates/engine/src/eval/params.rs`.

use anyhow::{bail, Context, Result};
use bastion_core::TablebaseProbe;
use bastion_tablebase::Probers;
use bastion_train::selfplay::{self, DataWriter, GenConfig};
use bastion_train::texel::{self, Tuner};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Arguments of `bastion tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Generate this many self-play games instead of tuning.
    #[arg(long)]
    generate: Option<u64>,
    /// Data file: `fen,result,game[,score]` lines, or 32-byte packed records (with the
    /// score) when the name ends in `.bin`; written by --generate, read by tuning.
    #[arg(long, default_value = "tune-data.csv")]
    data: PathBuf,
    /// Nodes per move in self-play.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Random opening plies in self-play (played after the start position; with 0 each
    /// start of `--starts` is played as it is).
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// With --generate: start the games from the positions of this EPD or PGN file (as
    /// `bastion match --openings` reads them; game `g` takes position `g` modulo their
    /// number) instead of the standard start position: an opening book, or endings to be
    /// played out.
    #[arg(long)]
    starts: Option<PathBuf>,
    /// Seed for the random openings.
    #[arg(long, default_value_t = 0x5EED)]
    seed: u64,
    /// With --generate: append White's search score to every line (`fen,result,game,score`),
    /// which `bastion nnue train` reads as labelled data without a separate `nnue label` pass.
    #[arg(long)]
    scores: bool,
    /// Threads for self-play.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// With --generate: end a game with the Syzygy WDL value once a capture or pawn move
    /// reaches a position these tables cover (cursed wins and blessed losses are draws).
    #[arg(long)]
    syzygy: Option<PathBuf>,
    /// With --generate: the same with Bastion's tables and bitbases in this directory
    /// (asked before Syzygy; DTM tables ignore the 50-move rule).
    #[arg(long)]
    tb_dir: Option<PathBuf>,
    /// Tuning epochs (full passes).
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Adam learning rate (centipawns per step).
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// L2 regularisation strength on every weight except material (0 = none).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Keep the piece values (material weights) at their current values.
    #[arg(long)]
    freeze_material: bool,
    /// Where to write the tuned weights (Rust source).
    #[arg(long, default_value = "tuned_params.rs")]
    out: PathBuf,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct TuneReport {
    positions: usize,
    skipped_lines: usize,
    k: f64,
    error_before: f64,
    error_after: f64,
    epochs: usize,
    out: String,
}

/// Runs the subcommand.
pub fn run(args: TuneArgs) -> Result<()> {
    match args.generate {
        Some(n) => generate(n, &args),
        None => fit(&args),
    }
}

fn generate(n: u64, args: &TuneArgs) -> Result<()> {
    if args.nodes == 0 || args.threads == 0 {
        bail!("--nodes and --threads must be positive");
    }
    let tablebase: Option<Arc<dyn TablebaseProbe>> = match (&args.tb_dir, &args.syzygy) {
        (None, None) => None,
        (dir, syzygy) => Some(Arc::new(
            Probers::open(dir.as_slice(), syzygy.as_deref()).context("opening the tables for adjudication")?,
        )),
    };
    let starts = match &args.starts {
        Some(path) => Some(Arc::new(
            bastion_arena::openings::load(path)?.iter().map(bastion_arena::openings::Opening::position).collect(),
        )),
        None => None,
    };
    let (mut out, done) =
        DataWriter::open(&args.data, args.scores).with_context(|| format!("opening {}", args.data.display()))?;
    let todo = (0..n).filter(|g| !done.contains(g)).count() as u64;
    let bar = bastion_progress::bar(!args.json, todo, "{bar:40} {pos}/{len} games {msg} eta {eta}");
    bar.set_prefix("games");
    let cfg = GenConfig {
        nodes: args.nodes,
        random_plies: args.random_plies,
        seed: args.seed,
        scores: args.scores,
        tablebase,
        starts,
    };
    let positions = AtomicU64::new(0);
    let played = AtomicU64::new(0);
    let by_tablebase = AtomicU64::new(0);
    let started = std::time::Instant::now();
    // Ctrl-C finishes the games in progress and leaves a file that `--generate` resumes.
    let stop = Arc::new(AtomicBool::new(false));
    {
        let flag = stop.clone();
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    selfplay::generate(
        n,
        args.threads,
        &cfg,
        &done,
        &mut out,
        &|rec| {
            played.fetch_add(1, Ordering::Relaxed);
            by_tablebase.fetch_add(u64::from(rec.by_tablebase), Ordering::Relaxed);
            let n = rec.samples.len() as u64;
            let p = positions.fetch_add(n, Ordering::Relaxed) + n;
            let rate = p as f64 / started.elapsed().as_secs_f64().max(1e-3) * 3600.0;
            bar.set_message(format!("{p} positions ({:.2} M an hour)", rate / 1e6));
            bar.inc(1);
        },
        &stop,
    )
    .context("writing data")?;
    drop(out);
    bar.finish();
    let total = positions.load(Ordering::Relaxed);
    let played = played.load(Ordering::Relaxed);
    let by_tablebase = by_tablebase.load(Ordering::Relaxed);
    let seconds = started.elapsed().as_secs_f64();
    let interrupted = stop.load(Ordering::Relaxed) && played < todo;
    if args.json {
        println!(
            "{}",
            serde_json::json!({"games": n, "new_games": played, "interrupted": interrupted, "new_positions": total,
                "ended_by_tablebase": by_tablebase, "seconds": seconds, "data": args.data.display().to_string()})
        );
    } else {
        println!(
            "{played} new games ({} already present; {by_tablebase} ended by the tables), {total} new positions in {} \
             ({seconds:.0} s, {:.2} M positions an hour)",
            done.len(),
            args.data.display(),
            total as f64 / seconds.max(1e-3) * 3600.0 / 1e6
        );
        if interrupted {
            println!("interrupted after {played} of {todo} games; run the same command again to continue");
        }
    }
    Ok(())
}

fn fit(args: &TuneArgs) -> Result<()> {
    let (data, bad) = texel::load(&args.data).with_context(|| format!("reading {}", args.data.display()))?;
    if data.is_empty() {
        bail!("no usable positions in {} (generate some with --generate N)", args.data.display());
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        bail!("--l2 must be a non-negative number");
    }
    let mut t = Tuner::new(&data);
    drop(data);
    t.l2 = args.l2;
    t.freeze_material = args.freeze_material;
    let k = t.fit_k();
    let before = t.error();
    if !args.json {
        println!("{} positions ({} bad lines skipped), K = {k:.4}, error {before:.6}", t.len(), bad);
    }
    let bar = bastion_progress::bar(!args.json, args.epochs as u64, "{bar:40} {pos}/{len} epochs {msg}");
    bar.set_prefix("epochs");
    t.train(args.epochs, args.lr, &mut |e, err| {
        bar.set_position(e as u64);
        bar.set_message(format!("error {err:.6}"));
    });
    bar.finish();
    let after = t.error();
    let header = format!(
        "Data: {} ({} positions), K = {k:.4}, MSE {before:.6} -> {after:.6}, {} epochs, lr {}, l2 {}.",
        args.data.file_name().map(|s| s.to_string_lossy().to_string()).unwrap_or_default(),
        t.len(),
        args.epochs,
        args.lr,
        args.l2
    );
    let src = texel::format_weights(&t.rounded(), &header);
    std::fs::write(&args.out, src).with_context(|| format!("writing {}", args.out.display()))?;
    if args.json {
        let r = TuneReport {
            positions: t.len(),
            skipped_lines: bad,
            k,
            error_before: before,
            error_after: after,
            epochs: args.epochs,
            out: args.out.display().to_string(),
        };
        println!("{}", serde_json::to_string(&r)?);
    } else {
        println!("error {before:.6} -> {after:.6}; weights written to {}", args.out.display());
    }
    Ok(())
}
