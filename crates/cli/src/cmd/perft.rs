//! `bastion perft`: node counts for one position or a whole suite.

use crate::plural::count;
use anyhow::{bail, Context, Result};
use bastion_core::perft::{self, parse_suite};
use bastion_core::Position;
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Arguments of `bastion perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies (default 6 for one position; for a suite, the deepest listed).
    depth: Option<u32>,
    /// Position to count from (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Play every leaf move instead of counting the last ply with popcounts.
    #[arg(long)]
    no_bulk: bool,
    /// A suite file (`id`/`epd`/`perft DEPTH NODES` lines) to check.
    #[arg(long, conflicts_with_all = ["fen", "divide"])]
    suite: Option<String>,
    /// With --suite: check listed depths up to this one (`--depth` is the same).
    #[arg(long, visible_alias = "depth")]
    depth_limit: Option<u32>,
    /// With --suite: positions checked in parallel (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Read FENs as Chess960 (X-FEN or Shredder-FEN castling rights; king takes rook in UCI
    /// output). Without it, castling rights impossible in standard chess are dropped.
    #[arg(long)]
    chess960: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Run a count deeper than 7 plies, or one estimated at more than 3·10^10 nodes
    /// (minutes to days), which is refused without it.
    #[arg(long)]
    force: bool,
}

/// Deepest count run without `--force`: depth 8 from the start position is 85 billion nodes.
const MAX_DEPTH_UNFORCED: u32 = 7;
/// Largest estimated count run without `--force` (about a minute at bulk-counting speed;
/// Kiwipete at depth 6, 8 billion nodes, is estimated at 1.1e10).
const MAX_NODES_UNFORCED: f64 = 3e10;

/// A rough size of `perft(pos, depth)`: the count at 3 plies (or less), times the
/// branching factor seen between the last two counted plies for each further ply.
fn estimate_nodes(pos: &Position, depth: u32) -> f64 {
    let known = depth.min(3);
    let (below, at) = (perft::perft(pos, known.saturating_sub(1)) as f64, perft::perft(pos, known) as f64);
    let branching = if below > 0.0 { at / below } else { 0.0 };
    at * branching.powi((depth - known) as i32)
}

/// Refuses (without `--force`) a count that would run for a very long time, saying why.
fn check_size(pos: &Position, depth: u32, force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    let estimate = estimate_nodes(pos, depth);
    if depth > MAX_DEPTH_UNFORCED || estimate > MAX_NODES_UNFORCED {
        bail!(
            "perft {depth} from this position is about {estimate:.1e} nodes, which takes a long time; \
             counts deeper than {MAX_DEPTH_UNFORCED} plies or above {MAX_NODES_UNFORCED:.0e} nodes need --force"
        );
    }
    Ok(())
}

#[derive(Serialize)]
struct Report {
    fen: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    nps: f64,
    divide: Vec<(String, u64)>,
}

/// Runs the subcommand.
pub fn run(args: PerftArgs) -> Result<()> {
    if let Some(path) = &args.suite {
        return run_suite(path, &args);
    }
    let mut pos = match &args.fen {
        Some(f) => Position::from_fen_with(f, args.chess960.into()).with_context(|| format!("bad FEN {f:?}"))?,
        None => Position::startpos(),
    };
    if args.chess960 {
        pos.set_chess960(true);
    }
    let depth = args.depth.unwrap_or(6);
    check_size(&pos, depth, args.force)?;
    let start = Instant::now();
    let mut divide = Vec::new();
    let nodes = if args.divide {
        for (m, n) in perft::divide(&pos, depth) {
            divide.push((pos.to_uci(m), n));
        }
        divide.iter().map(|(_, n)| n).sum()
    } else if args.no_bulk {
        perft::perft_full(&pos, depth)
    } else {
        perft::perft(&pos, depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    let report = Report { fen: pos.fen(), depth, nodes, seconds, nps: nodes as f64 / seconds.max(1e-9), divide };
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        for (m, n) in &report.divide {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out, "fen     {}", report.fen)?;
        writeln!(out, "depth   {depth}")?;
        writeln!(out, "nodes   {nodes}")?;
        writeln!(out, "time    {:.3} s", seconds)?;
        writeln!(out, "nps     {:.1} M/s", report.nps / 1e6)?;
    }
    Ok(())
}

fn run_suite(path: &str, args: &PerftArgs) -> Result<()> {
    let text = bastion_core::io::read_to_string_bounded(std::path::Path::new(path), bastion_core::io::TEXT_LIMIT)
        .map_err(bastion_core::io::BoundedReadError::into_io)
        .with_context(|| format!("cannot read {path}"))?;
    let cases = parse_suite(&text)?;
    let limit = args.depth_limit.or(args.depth).unwrap_or(u32::MAX);
    let mut positions = Vec::with_capacity(cases.len());
    for case in &cases {
        let pos = case.position(args.chess960).with_context(|| format!("{}: bad FEN {:?}", case.id, case.fen))?;
        positions.push(pos);
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let (total, checked) = (AtomicU64::new(0), AtomicUsize::new(0));
    let failed = Mutex::new(Vec::new());
    // Deep suite runs take an hour: show positions done, nodes per second and failures so far.
    let bar = bastion_progress::bar(
        !args.json,
        cases.len() as u64,
        "{bar:30} {pos}/{len} positions, {elapsed} elapsed, ~{eta} left {msg}",
    );
    bar.set_prefix("positions");
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let (Some(case), Some(pos)) = (cases.get(i), positions.get(i)) else { break };
                for &(depth, want) in case.expected.iter().filter(|(d, _)| *d <= limit) {
                    let got = if args.no_bulk { perft::perft_full(pos, depth) } else { perft::perft(pos, depth) };
                    total.fetch_add(got, Ordering::Relaxed);
                    checked.fetch_add(1, Ordering::Relaxed);
                    if got != want {
                        let line = format!("{} depth {depth}: got {got}, want {want} ({})", case.id, case.fen);
                        failed.lock().unwrap_or_else(|e| e.into_inner()).push(line);
                    }
                }
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                let failures = failed.lock().map_or(0, |f| f.len());
                bar.set_message(format!(
                    "({:.0} M nodes/s, {failures} failed)",
                    total.load(Ordering::Relaxed) as f64 / secs / 1e6
                ));
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let (total, checked) = (total.into_inner(), checked.into_inner());
    let failed = failed.into_inner().unwrap_or_else(|e| e.into_inner());
    let secs = start.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if args.json {
        let doc = serde_json::json!({
            "suite": path, "positions": cases.len(), "checks": checked, "threads": threads,
            "failures": failed, "nodes": total, "seconds": secs, "nps": total as f64 / secs.max(1e-9),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        for f in &failed {
            writeln!(out, "FAIL {f}")?;
        }
        writeln!(
            out,
            "{}, {}, {} failed ({})",
            count(cases.len() as u64, "position", "positions"),
            count(checked as u64, "check", "checks"),
            failed.len(),
            count(threads as u64, "thread", "threads")
        )?;
        writeln!(out, "{total} nodes in {secs:.2} s ({:.1} M/s)", total as f64 / secs.max(1e-9) / 1e6)?;
    }
    if !failed.is_empty() {
        bail!("{} perft checks failed", failed.len());
    }
    Ok(())
}
