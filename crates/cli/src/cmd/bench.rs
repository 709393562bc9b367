//! `bastion bench [depth]`: fixed positions, fixed depth, one thread, cleared hash.
//! Prints total nodes (a deterministic signature of the search) and nps.

use anyhow::{bail, Context, Result};
use bastion_engine::bench::Evaluation;
use bastion_engine::nnue::Network;
use clap::Args;
use serde::Serialize;

/// Arguments of `bastion bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth in plies.
    depth: Option<i32>,
    /// Hash size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Evaluate with this network file instead of the built-in one (`none`: the hand-written
    /// evaluation); the node count is then not the signature, the speed is the network's.
    #[arg(long)]
    eval_file: Option<String>,
    /// Print each position's node count.
    #[arg(long, short)]
    verbose: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    depth: i32,
    positions: usize,
    nodes: u64,
    time_ms: u64,
    nps: u64,
}

/// Runs the subcommand.
pub fn run(args: BenchArgs) -> Result<()> {
    let depth = args.depth.unwrap_or(bastion_engine::bench::DEFAULT_DEPTH);
    if !(1..=64).contains(&depth) {
        bail!("depth must be between 1 and 64, got {depth}");
    }
    if !(1..=65536).contains(&args.hash) {
        bail!("hash must be between 1 and 65536 MiB");
    }
    let verbose = args.verbose && !args.json;
    let eval = match args.eval_file.as_deref().map(str::trim) {
        None | Some("<internal>") => Evaluation::Default,
        Some("none") => Evaluation::HandWritten,
        Some(path) => Evaluation::Network(Network::by_name(path).with_context(|| format!("reading network {path}"))?),
    };
    let r = bastion_engine::bench::run_with(depth, args.hash, eval, &mut |i, fen, nodes| {
        if verbose {
            println!("{:>3} {:>10} {fen}", i + 1, nodes);
        }
    })
    .map_err(anyhow::Error::msg)?;
    if args.json {
        let rep = Report { depth, positions: r.positions, nodes: r.nodes, time_ms: r.time_ms, nps: r.nps() };
        println!("{}", serde_json::to_string(&rep)?);
    } else {
        println!("positions {} depth {depth}", r.positions);
        println!("time      {} ms", r.time_ms);
        println!("nodes     {}", r.nodes);
        println!("nps       {}", r.nps());
    }
    Ok(())
}
