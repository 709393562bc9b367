//! `bastion spsa`: tune an engine's numeric UCI options by SPSA in game pairs against itself.

use crate::cmd::match_cmd::LimitArgs;
use anyhow::{bail, Context, Result};
use bastion_arena::openings::{self, Opening};
use bastion_arena::referee::{Adjudication, EngineConfig, RefereeConfig};
use bastion_arena::spsa::{run_spsa, SpsaConfig, SpsaParam, SpsaState};
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `bastion spsa`.
#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// The engine: `cmd="./engine --flag" [dir=DIR] [option.Hash=16 …]` (fixed options; the
    /// tuned ones are set after them).
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", required = true)]
    engine: Vec<String>,
    /// The tuned options, one a line in OpenBench's format:
    /// `name, int|float, value, min, max, c_end, r_end` (`#` starts a comment line).
    #[arg(long)]
    params: PathBuf,
    /// Game pairs in the whole run (the gains decay over this many).
    #[arg(long)]
    iterations: u64,
    /// The state file: written after every batch of pairs, read to resume an interrupted run.
    #[arg(long)]
    state: PathBuf,
    #[command(flatten)]
    limit: LimitArgs,
    /// Openings (.epd or .pgn), one per pair, in order and cycled; the start position without.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Game pairs played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the perturbation signs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Grace in milliseconds past the clock before a move is a time forfeit.
    #[arg(long, default_value_t = 100)]
    margin: u64,
    /// With --nodes/--depth: seconds a move may take before it is a forfeit.
    #[arg(long, default_value_t = 60)]
    move_timeout: u64,
    /// Draw any game that reaches this many moves.
    #[arg(long)]
    max_moves: Option<u32>,
    /// Print the final state as JSON instead of text.
    #[arg(long)]
    json: bool,
}

fn config(args: &SpsaArgs) -> Result<SpsaConfig> {
    let mut engine = EngineConfig::parse(&args.engine).map_err(anyhow::Error::msg)?;
    if engine.tc.is_some() || engine.book.is_some() {
        bail!("--engine: tc= and book= do not apply to SPSA (both sides are the same engine)");
    }
    engine.name = "spsa".into();
    let text =
        std::fs::read_to_string(&args.params).with_context(|| format!("cannot read {}", args.params.display()))?;
    let params = SpsaParam::parse_all(&text).map_err(|e| anyhow::anyhow!("{}: {e}", args.params.display()))?;
    let Some(time_control) = args.limit.time_control()? else {
        bail!("give a limit: --tc, --nodes, --movetime or --depth");
    };
    if args.iterations == 0 || args.concurrency == 0 {
        bail!("--iterations and --concurrency must be at least 1");
    }
    let openings = match &args.openings {
        Some(p) => openings::load(p)?,
        None => vec![Opening::startpos()],
    };
    Ok(SpsaConfig {
        engine,
        params,
        iterations: args.iterations,
        referee: RefereeConfig {
            time_control,
            time_margin: Duration::from_millis(args.margin),
            move_timeout: Duration::from_secs(args.move_timeout.max(1)),
            adjudication: Adjudication { max_moves: args.max_moves, ..Adjudication::default() },
        },
        openings,
        concurrency: args.concurrency,
        seed: args.seed,
        state: Some(args.state.clone()),
    })
}

/// The values as a parameter file and as `bastion match` options.
fn report(state: &SpsaState) -> String {
    let [w, d, l] = state.wdl;
    let mut s = format!("SPSA {}/{} pairs (+ side: W {w} D {d} L {l})\n", state.iterations_done, state.iterations);
    for p in &state.params {
        s.push_str(&p.to_line());
        s.push('\n');
    }
    s.push_str(&format!("{}\n", state.options()));
    s
}

/// Runs `bastion spsa`.
pub fn run(args: SpsaArgs) -> Result<()> {
    let config = config(&args)?;
    let interrupt = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupt.clone();
        // Games in progress end within one move; their batch is not counted.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    let state = run_spsa(&config, interrupt, |s| {
        let values: Vec<String> = s.params.iter().map(|p| format!("{} {:.2}", p.name, p.value)).collect();
        eprintln!("pairs {}/{}: {}", s.iterations_done, s.iterations, values.join(", "));
    })?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&state)?);
    } else {
        print!("{}", report(&state));
    }
    if state.iterations_done < state.iterations {
        eprintln!("interrupted: run the same command again to resume from {}", args.state.display());
    }
    Ok(())
}
