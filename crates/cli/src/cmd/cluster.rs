//! `bastion cluster`: work spread over the ranks of an MPI job (`mpirun -np N bastion cluster
//! …`, in a build with `--features mpi`). Rank 0 reads the input and prints. `cluster epd`:
//! every rank, rank 0 included, works on the queue; the report is that of the single-process
//! command. `cluster uci`: every rank searches the same position, rank 0 speaks UCI as
//! `bastion uci` does and plays the move the ranks vote for. `cluster tb`: one tablebase
//! generated with its index space split over the ranks; rank 0 writes the file `bastion tb
//! gen` would write.

use super::epd::{parse_duration, position_line, print_report, SuiteArgs};
use anyhow::{Context, Result};
use bastion_arena::suite::SuiteConfig;
use bastion_cluster::search::{serve_root, serve_worker, SearchOptions, Tap, UciSession};
use bastion_cluster::suite::{assemble_report, read_suite, run_position, SuiteOutcome, SuiteTask};
use bastion_cluster::tables::{introduce, report_text, watch_for_stop, MpiExchange};
use bastion_cluster::world::{self, MpiWorld};
use bastion_cluster::{dismiss_all, distribute, serve, ClusterError, Event, QueueOptions, Transport};
use bastion_tablebase::driver::{progress_bar, use_threads_globally};
use bastion_tablebase::partition::{build_sliced, SliceError};
use bastion_tablebase::{Material, Metric, TbError};
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// Arguments of `bastion cluster`.
#[derive(Args, Debug)]
pub struct ClusterArgs {
    #[command(subcommand)]
    command: ClusterCommand,
}

#[derive(Subcommand, Debug)]
enum ClusterCommand {
    /// An EPD suite with its positions handed out to the ranks: the report of `bastion epd`.
    Epd(ClusterEpdArgs),
    /// The UCI engine searching on every rank (lazy cluster): rank 0 speaks UCI as `bastion
    /// uci` does and plays the move the ranks vote for.
    Uci(ClusterUciArgs),
    /// One tablebase generated with its index space split over the ranks: rank 0 writes the
    /// file `bastion tb gen` writes, byte for byte. The sub-endings must be in --dir.
    Tb(ClusterTbArgs),
}

/// Arguments of `bastion cluster tb`.
#[derive(Args, Debug)]
struct ClusterTbArgs {
    /// Ending such as KRKN (any order of the men is accepted).
    ending: String,
    /// Directory with the sub-endings' tables, where rank 0 writes the table.
    #[arg(long, default_value = "tables")]
    dir: PathBuf,
    /// What the table counts: dtm, dtc or dtz (as `bastion tb gen --metric`; DTZ needs the
    /// ending's DTM table in --dir).
    #[arg(long, default_value = "dtm")]
    metric: Metric,
    /// Worker threads per rank (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// An exchange between the ranks that has not completed after this long ends the job.
    #[arg(long, default_value = "120s")]
    rank_timeout: String,
    /// Print the report as one JSON document.
    #[arg(long)]
    json: bool,
}

/// Arguments of `bastion cluster uci`.
#[derive(Args, Debug)]
struct ClusterUciArgs {
    /// A rank silent (not even a heartbeat) for this long is left out of the votes.
    #[arg(long, default_value = "30s")]
    rank_timeout: String,
    /// How long rank 0 waits for the other ranks' answers once its own search has ended.
    #[arg(long, default_value = "50ms")]
    answer_wait: String,
    /// Print every vote (each rank's move, depth and score, and the pick) to standard error.
    #[arg(long)]
    log_votes: bool,
}

/// Arguments of `bastion cluster epd`: those of `bastion epd`, the engine by default this
/// program's own, and the rank timeout.
#[derive(Args, Debug)]
struct ClusterEpdArgs {
    /// The EPD suite (read by rank 0 only).
    file: PathBuf,
    /// Engine command line, started by every rank; default: this program's `uci`.
    #[arg(long)]
    engine: Option<String>,
    /// A rank silent (no result, no heartbeat) for this long ends the job.
    #[arg(long, default_value = "30s")]
    rank_timeout: String,
    #[command(flatten)]
    suite: SuiteArgs,
}

/// Runs the subcommand.
pub fn run(args: ClusterArgs) -> Result<()> {
    match args.command {
        ClusterCommand::Epd(args) => run_epd(args),
        ClusterCommand::Uci(args) => run_uci(args),
        ClusterCommand::Tb(args) => run_tb(args),
    }
}

/// This program's `uci`, quoted for the engine command line.
fn own_engine() -> Result<String> {
    let exe = std::env::current_exe().context("cannot find this program's path for --engine")?;
    let path = exe.to_str().context("this program's path is not UTF-8; give --engine")?;
    Ok(format!("'{}' uci", path.replace('\'', r"'\''")))
}

fn suite_config(args: &ClusterEpdArgs) -> Result<SuiteConfig> {
    let command = match &args.engine {
        Some(e) => e.clone(),
        None => own_engine()?,
    };
    args.suite.config(command)
}

fn load_suite(args: &ClusterEpdArgs) -> Result<Vec<SuiteTask>> {
    let text = bastion_core::io::read_to_string_bounded(&args.file, bastion_core::io::TEXT_LIMIT)
        .map_err(bastion_core::io::BoundedReadError::into_io)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    read_suite(&args.file.display().to_string(), &text, args.suite.limit).map_err(anyhow::Error::msg)
}

fn run_epd(args: ClusterEpdArgs) -> Result<()> {
    let world = MpiWorld::init().map_err(anyhow::Error::msg)?;
    // Every rank reads the same arguments, so a bad one fails on all of them alike; rank 0 says so.
    let setup = suite_config(&args).and_then(|config| {
        let rank_timeout = parse_duration(&args.rank_timeout).context("--rank-timeout")?;
        Ok((config, QueueOptions { rank_timeout, ..QueueOptions::default() }))
    });
    if world.rank() != 0 {
        let Ok((config, options)) = setup else { return Ok(()) };
        return match serve(&world, move |task: &SuiteTask| run_position(&config, task), &options) {
            // Rank 0 reports a failed position's engine and ends the job.
            Ok(_) | Err(ClusterError::Failed { .. }) => Ok(()),
            Err(e) => {
                eprintln!("error: rank {}: {e}", world.rank());
                world.abort(1)
            }
        };
    }
    let stop = world::stop_flag().map_err(anyhow::Error::msg)?;
    let (config, options, tasks) = match setup.and_then(|(c, o)| Ok((c, o, load_suite(&args)?))) {
        Ok(ready) => ready,
        Err(e) => {
            dismiss_all(&world)?;
            return Err(e);
        }
    };
    let worker_config = config.clone();
    let json = args.suite.json;
    let outcomes = distribute(
        &world,
        &tasks,
        move |task: &SuiteTask| run_position(&worker_config, task),
        &options,
        &|| world::stopped(&stop),
        |event: Event<'_, SuiteOutcome>| match event {
            Event::Joined { rank, peer } => eprintln!("rank {rank} of {}: {peer}", world.size()),
            Event::Finished { rank, result, .. } if !json => {
                eprintln!("{} [rank {rank}]", position_line(&result.result));
            }
            Event::Finished { .. } => {}
        },
    );
    let outcomes = match outcomes {
        Ok(outcomes) => outcomes,
        Err(e) => {
            // The other ranks may still be searching: say why, then end all of them.
            eprintln!("error: {e}");
            world.abort(1)
        }
    };
    let report = assemble_report(&config, outcomes).map_err(anyhow::Error::msg)?;
    print_report(report, args.suite.json)
}

fn run_uci(args: ClusterUciArgs) -> Result<()> {
    let world = MpiWorld::init().map_err(anyhow::Error::msg)?;
    // Every rank reads the same arguments, so a bad one fails on all of them alike.
    let options = SearchOptions {
        rank_timeout: parse_duration(&args.rank_timeout).context("--rank-timeout")?,
        answer_wait: parse_duration(&args.answer_wait).context("--answer-wait")?,
        log_votes: args.log_votes,
        ..SearchOptions::default()
    };
    if world.rank() != 0 {
        return match serve_worker(&world, session, &options) {
            Ok(()) => Ok(()),
            Err(e) => {
                eprintln!("error: rank {}: {e}", world.rank());
                world.abort(1)
            }
        };
    }
    let stop = world::stop_flag().map_err(anyhow::Error::msg)?;
    let input = Box::new(std::io::BufReader::new(std::io::stdin()));
    match serve_root(&world, session, input, &mut std::io::stdout(), &options, &|| world::stopped(&stop)) {
        Ok(end) if end.lost.is_empty() => Ok(()),
        Ok(end) => {
            // A rank that hangs would hold up MPI's orderly end for ever: end the job instead.
            let lost: Vec<String> = end.lost.iter().map(|(rank, _)| format!("rank {rank}")).collect();
            eprintln!("error: {} did not answer; ending the job", lost.join(", "));
            world.abort(1)
        }
        Err(e) => {
            eprintln!("error: {e}");
            world.abort(1)
        }
    }
}

/// One rank's engine session, wired as `bastion uci` wires its own: tablebases (`SyzygyPath`,
/// `BastionTBPath`), opening book and mate solver.
fn session(out: Tap) -> UciSession {
    super::uci::session(out)
}

fn run_tb(args: ClusterTbArgs) -> Result<()> {
    let world = MpiWorld::init().map_err(anyhow::Error::msg)?;
    let root = world.rank() == 0;
    // Every rank reads the same arguments, so a bad one fails on all of them alike; rank 0 says so.
    let setup = (|| {
        let (material, _) = Material::parse(&args.ending)?.normalized();
        if material.count() > 5 {
            anyhow::bail!("endings of more than five men are not supported");
        }
        let rank_timeout = parse_duration(&args.rank_timeout).context("--rank-timeout")?;
        let threads = use_threads_globally(args.threads).map_err(anyhow::Error::msg).context("--threads")?;
        Ok((material, rank_timeout, threads))
    })();
    let (material, rank_timeout, threads) = match setup {
        Ok(ready) => ready,
        Err(e) if root => return Err(e),
        Err(_) => return Ok(()),
    };
    let name = material.name();
    let mut exchange = MpiExchange::new(&world, rank_timeout, &name);
    if root {
        watch_for_stop(exchange.phase(), &name).map_err(anyhow::Error::msg)?;
    }
    let peers = introduce(&mut exchange, std::process::id(), &world.host())?;
    for (rank, (pid, host)) in peers.iter().enumerate() {
        eprintln!("rank {rank} of {}: pid {pid} on {host}", world.size());
    }
    if root && !args.json {
        eprintln!(
            "generating {name} ({}) into {} on {} ranks, {threads} threads each",
            args.metric,
            args.dir.display(),
            world.size()
        );
    }
    let start = std::time::Instant::now();
    let progress = progress_bar(root && !args.json, &name);
    let built = build_sliced(&material, &args.dir, args.metric, &progress, &mut exchange);
    progress.finish_and_clear();
    match built {
        Ok(Some(build)) if args.json => {
            println!("{}", serde_json::to_string_pretty(&build)?);
            Ok(())
        }
        Ok(Some(build)) => {
            print!("{}", report_text(&build, start.elapsed().as_secs_f64()));
            Ok(())
        }
        Ok(None) => Ok(()),
        // Every rank found the same table missing: rank 0 says which, the others leave.
        Err(SliceError::Table(TbError::Missing(table))) if root => Err(anyhow::anyhow!(
            "table {table} is missing in {dir}: `cluster tb` makes only {name} itself; make the missing \
             sub-ending first with `bastion tb gen {table} --dir {dir}` (it makes its own sub-endings too)",
            dir = args.dir.display()
        )),
        Err(SliceError::Table(_) | SliceError::Elsewhere(_)) if !root => Ok(()),
        Err(e @ (SliceError::Table(_) | SliceError::Elsewhere(_))) => Err(e.into()),
        Err(SliceError::Exchange(e)) => {
            eprintln!("error: rank {}: generating {name}: {e}", world.rank());
            world.abort(1)
        }
    }
}
