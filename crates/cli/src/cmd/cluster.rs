//! `bastion cluster`: work spread over the ranks of an MPI job (`mpirun -np N bastion cluster
//! …`, in a build with `--features mpi`). Rank 0 reads the input and prints. `cluster epd`:
//! every rank, rank 0 included, works on the queue; the report is that of the single-process
//! command. `cluster uci`: every rank searches the same position, rank 0 speaks UCI as
//! `bastion uci` does and plays the move the ranks vote for. `cluster tb`: one tablebase
//! generated with its index space split over the ranks; rank 0 writes the file `bastion tb
//! gen` would write. `cluster match`, `cluster solve` and `cluster fortress`: the games of a
//! match or the positions of a suite handed out one at a time; rank 0 prints what `bastion
//! match`, `bastion solve --epd` and `bastion fortress --suite` print.

use super::epd::{parse_duration, position_line, print_report, SuiteArgs};
use anyhow::{Context, Result};
use bastion_arena::suite::SuiteConfig;
use bastion_arena::tournament::{MatchConfig, Resumed};
use bastion_cluster::games::{game_worker, lead_match, MatchEvent};
use bastion_cluster::mates::{mate_worker, MateSettings, MateTask};
use bastion_cluster::ordered::distribute_in_order;
use bastion_cluster::search::{serve_root, serve_worker, SearchOptions, Tap, UciSession};
use bastion_cluster::suite::{assemble_report, read_suite, run_position, SuiteOutcome, SuiteTask};
use bastion_cluster::tables::{introduce, report_text, watch_for_stop, MpiExchange};
use bastion_cluster::world::{self, MpiWorld};
use bastion_cluster::{
    dismiss_all, distribute, serve, serve_interruptible, ClusterError, Event, QueueOptions, Transport,
};
use bastion_engine::tt::TtShare;
use bastion_fortress::labels::LabelledPosition;
use bastion_fortress::suite::remaining;
use bastion_fortress::{SuiteReport, SuiteRow};
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
    /// A match with its games handed out to the ranks: the report of `bastion match`, the PGN
    /// in game order; an SPRT that decides stops every rank.
    Match(ClusterMatchArgs),
    /// A mate suite (`--epd`) with its entries handed out to the ranks: the output of `bastion
    /// solve --epd`.
    // Suites only: `--epd` is required, and the one-problem FEN (which conflicts with it) is
    // kept out of the help.
    #[command(mut_arg("epd", |a| a.required(true)), mut_arg("fen", |a| a.hide(true)))]
    Solve(ClusterSolveArgs),
    /// A labelled fortress set (`--suite`) with its positions handed out to the ranks: the
    /// report of `bastion fortress --suite`.
    Fortress(ClusterFortressArgs),
}

/// Arguments of `bastion cluster solve`: those of `bastion solve --epd`, and the rank timeout.
#[derive(Args, Debug)]
struct ClusterSolveArgs {
    /// A rank silent (no result, no heartbeat) for this long ends the job.
    #[arg(long, default_value = "30s")]
    rank_timeout: String,
    #[command(flatten)]
    solve: super::solve::SolveArgs,
}

/// Arguments of `bastion cluster fortress`: those of `bastion fortress --suite`, and the rank
/// timeout.
#[derive(Args, Debug)]
struct ClusterFortressArgs {
    /// A rank silent (no result, no heartbeat) for this long ends the job.
    #[arg(long, default_value = "30s")]
    rank_timeout: String,
    #[command(flatten)]
    fortress: super::fortress::FortressArgs,
}

/// Arguments of `bastion cluster match`: those of `bastion match` (one game at a time per
/// rank, so no --concurrency or --learn-book), and the rank timeout.
#[derive(Args, Debug)]
struct ClusterMatchArgs {
    /// A rank silent (no result, no heartbeat) for this long ends the job.
    #[arg(long, default_value = "30s")]
    rank_timeout: String,
    #[command(flatten)]
    game: super::match_cmd::MatchArgs,
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
    /// Every rank leaves a checkpoint of its slice in --dir at most this often (between two
    /// levels; 0: before every level); a rerun on as many ranks goes on from the latest one all
    /// ranks have. Removed once the table is written.
    #[arg(long, default_value = "300s")]
    checkpoint_every: String,
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
    /// Share transposition-table entries of at least this depth between the ranks while
    /// they search; 0: share none.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(i32).range(0..=64))]
    share_depth: i32,
    /// Every rank searches as rank 0 does, without the depth skipping that makes the ranks
    /// search different trees (for measuring what that skipping buys).
    #[arg(long)]
    same_search: bool,
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
        ClusterCommand::Match(args) => run_match(args),
        ClusterCommand::Solve(args) => run_solve(args),
        ClusterCommand::Fortress(args) => run_fortress(args),
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
    let setup = suite_config(&args).and_then(|config| Ok((config, queue_options(&args.rank_timeout)?)));
    if world.rank() != 0 {
        let Ok((config, options)) = setup else { return Ok(()) };
        return worker_end(&world, serve(&world, move |task: &SuiteTask| run_position(&config, task), &options));
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
    let outcomes = outcomes.unwrap_or_else(|e| end_job(&world, &e));
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
    let rank = if args.same_search { 0 } else { world.rank() };
    if world.rank() != 0 {
        return match serve_worker(&world, |out| session(out, args.share_depth, rank), &options) {
            Ok(()) => Ok(()),
            Err(e) => {
                world::say(&format!("error: rank {}: {e}", world.rank()));
                world.abort(1)
            }
        };
    }
    let stop = world::stop_flag().map_err(anyhow::Error::msg)?;
    let input = Box::new(std::io::BufReader::new(std::io::stdin()));
    let root_session = |out| session(out, args.share_depth, 0);
    match serve_root(&world, root_session, input, &mut std::io::stdout(), &options, &|| world::stopped(&stop)) {
        Ok(end) if end.lost.is_empty() => Ok(()),
        Ok(end) => {
            // A rank that hangs would hold up MPI's orderly end for ever: end the job instead.
            let lost: Vec<String> = end.lost.iter().map(|(rank, _)| format!("rank {rank}")).collect();
            world::say(&format!("error: {} did not answer; ending the job", lost.join(", ")));
            world.abort(1)
        }
        Err(e) => {
            world::say(&format!("error: {e}"));
            world.abort(1)
        }
    }
}

/// One rank's engine session, wired as `bastion uci` wires its own: tablebases (`SyzygyPath`,
/// `BastionTBPath`), opening book and mate solver; sharing table entries of at least
/// `share_depth` plies with the other ranks unless it is 0, and searching as rank `rank`
/// ([`UciSession::with_cluster_rank`]).
fn session(out: Tap, share_depth: i32, rank: usize) -> UciSession {
    let session = super::uci::session(out).with_cluster_rank(rank);
    if share_depth > 0 {
        session.with_tt_share(TtShare::new(share_depth))
    } else {
        session
    }
}

fn run_tb(args: ClusterTbArgs) -> Result<()> {
    let world = MpiWorld::init().map_err(anyhow::Error::msg)?;
    let root = world.rank() == 0;
    // Every rank reads the same arguments, so a bad one fails on all of them alike; rank 0 says so.
    let setup = (|| {
        let (material, _) = Material::parse(&args.ending)?.normalized();
        let rank_timeout = parse_duration(&args.rank_timeout).context("--rank-timeout")?;
        let every = bastion_core::duration::parse_duration(&args.checkpoint_every).context("--checkpoint-every")?;
        let threads = use_threads_globally(args.threads).map_err(anyhow::Error::msg).context("--threads")?;
        Ok((material, rank_timeout, every, threads))
    })();
    let (material, rank_timeout, every, threads) = match setup {
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
    let built = build_sliced(&material, &args.dir, args.metric, every, &progress, &mut exchange);
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
            world::say(&format!("error: rank {}: generating {name}: {e}", world.rank()));
            world.abort(1)
        }
    }
}

/// The match of `cluster match`'s arguments, refused when it asks for what a distributed
/// match does not do.
fn cluster_match_setup(args: &ClusterMatchArgs) -> Result<(MatchConfig, QueueOptions)> {
    let config = super::match_cmd::match_config(&args.game)?;
    if config.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    if config.concurrency != 1 {
        anyhow::bail!("--concurrency: each rank plays one game at a time; run more ranks instead");
    }
    if config.learning.is_some() {
        anyhow::bail!("--learn-book is not supported by cluster match: the book learns in `bastion match` only");
    }
    Ok((config, queue_options(&args.rank_timeout)?))
}

fn run_match(args: ClusterMatchArgs) -> Result<()> {
    let world = MpiWorld::init().map_err(anyhow::Error::msg)?;
    // Every rank reads the same arguments, so a bad one fails on all of them alike; rank 0 says so.
    let setup = cluster_match_setup(&args);
    if world.rank() != 0 {
        let Ok((config, options)) = setup else { return Ok(()) };
        return worker_end(&world, serve_interruptible(&world, game_worker(config), &options));
    }
    let stop = world::stop_flag().map_err(anyhow::Error::msg)?;
    let ready = setup.and_then(|(config, options)| {
        // Fail fast on an engine that cannot start, as `bastion match` does.
        for e in &config.engines {
            e.start().with_context(|| format!("cannot start engine {}", e.name))?;
        }
        // Read before the file is opened for appending: it is rewritten with complete units only.
        let resumed = Resumed::read(&config)?;
        let pgn = match &config.pgn_out {
            Some(path) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open {}", path.display()))?,
            ),
            None => None,
        };
        Ok((config, options, resumed, pgn))
    });
    let (config, options, resumed, mut pgn) = match ready {
        Ok(ready) => ready,
        Err(e) => {
            dismiss_all(&world)?;
            return Err(e);
        }
    };
    let json = args.game.json();
    let names = config.engines.clone().map(|e| e.name);
    let report = lead_match(
        &world,
        &config,
        &resumed,
        &options,
        &|| world::stopped(&stop),
        pgn.as_mut().map(|f| f as &mut dyn std::io::Write),
        |event| match event {
            MatchEvent::Joined { rank, peer } => eprintln!("rank {rank} of {}: {peer}", world.size()),
            MatchEvent::Game { rank, game, report } if !json => {
                let (white, black) = if game.game.first_is_white { (0, 1) } else { (1, 0) };
                eprintln!("{} - {} {} ({}) [rank {rank}]", names[white], names[black], game.result, game.reason);
                eprintln!("{}", report.summary_line());
            }
            MatchEvent::Game { .. } => {}
        },
    );
    let report = report.unwrap_or_else(|e| end_job(&world, &e));
    super::match_cmd::print_report(&report, json)
}

/// How a worker rank leaves a queue job, given what [`serve`] (or [`serve_interruptible`])
/// returned: a failed item has been reported to rank 0, which ends the job; any other failure
/// ends it from here.
fn worker_end(world: &MpiWorld, served: Result<usize, ClusterError>) -> Result<()> {
    match served {
        Ok(_) | Err(ClusterError::Failed { .. }) => Ok(()),
        Err(e) => {
            world::say(&format!("error: rank {}: {e}", world.rank()));
            world.abort(1)
        }
    }
}

/// The queue's settings from `--rank-timeout`.
fn queue_options(rank_timeout: &str) -> Result<QueueOptions> {
    let rank_timeout = parse_duration(rank_timeout).context("--rank-timeout")?;
    Ok(QueueOptions { rank_timeout, ..QueueOptions::default() })
}

/// Rank 0's end of a queue job that failed: the other ranks may still be working, so say why
/// and end all of them.
fn end_job(world: &MpiWorld, e: &dyn std::fmt::Display) -> ! {
    world::say(&format!("error: {e}"));
    world.abort(1)
}

fn run_solve(args: ClusterSolveArgs) -> Result<()> {
    let world = MpiWorld::init().map_err(anyhow::Error::msg)?;
    // Every rank reads the same arguments, so a bad one fails on all of them alike; rank 0 says so.
    let setup = super::solve::suite_settings(&args.solve).and_then(|(hash, limit, shortest)| {
        Ok((MateSettings { hash, limit, shortest }, queue_options(&args.rank_timeout)?))
    });
    if world.rank() != 0 {
        let Ok((settings, options)) = setup else { return Ok(()) };
        return worker_end(&world, serve(&world, mate_worker(settings), &options));
    }
    let stop = world::stop_flag().map_err(anyhow::Error::msg)?;
    let ready = setup.and_then(|(settings, options)| {
        let (path, entries) = super::solve::suite_entries(&args.solve)?;
        let output = super::solve::SuiteOutput::start(&args.solve, entries.len())?;
        Ok((settings, options, path, entries, output))
    });
    let (settings, options, path, entries, mut output) = match ready {
        Ok(ready) => ready,
        Err(e) => {
            dismiss_all(&world)?;
            return Err(e);
        }
    };
    let tasks: Vec<MateTask> = entries.iter().map(MateTask::of).collect();
    let mut printed = Ok(());
    let rows = distribute_in_order(
        &world,
        &tasks,
        mate_worker(settings),
        &options,
        &|| world::stopped(&stop),
        |rank, peer| eprintln!("rank {rank} of {}: {peer}", world.size()),
        |index, _, row| {
            if printed.is_ok() {
                printed = output.row(row, index + 1);
            }
        },
    );
    let rows = rows.unwrap_or_else(|e| end_job(&world, &e));
    printed?;
    output.finish(path, settings.limit, rows)
}

fn run_fortress(args: ClusterFortressArgs) -> Result<()> {
    use super::fortress::{analyse_row, print_suite_report, suite_engine, suite_setup, suite_sink, write_row};
    let world = MpiWorld::init().map_err(anyhow::Error::msg)?;
    let root = world.rank() == 0;
    // Every rank reads the same arguments, so a bad one fails on all of them alike; rank 0 says so.
    let setup = suite_setup(&args.fortress, root)
        .and_then(|setup| Ok((setup, queue_options(&args.rank_timeout)?)))
        .and_then(|(setup, options)| {
            // Rank 0 starts the engine once to say whose report it is, as `bastion fortress
            // --suite` does, and to fail before any work when it cannot start.
            let name = match root {
                true => suite_engine(&args.fortress)?.name().unwrap_or("unknown engine").to_owned(),
                false => String::new(),
            };
            Ok((setup, options, name))
        });
    let args = std::sync::Arc::new(args);
    let worker = |config: bastion_fortress::Config, tables: Option<bastion_tablebase::Probers>| {
        let args = args.clone();
        // One engine per rank, started at its first position and kept, as the single-process
        // run keeps its one engine (every analysis starts with `ucinewgame`).
        let engine = std::sync::Mutex::new(None);
        move |p: &LabelledPosition| -> Result<SuiteRow, String> {
            let mut slot = engine.lock().map_err(|_| "an earlier position panicked".to_string())?;
            let engine = match slot.as_mut() {
                Some(engine) => engine,
                None => slot.insert(suite_engine(&args.fortress).map_err(|e| format!("{e:#}"))?),
            };
            analyse_row(engine, &config, tables.as_ref(), p).map_err(|e| format!("{e:#}"))
        }
    };
    if !root {
        let Ok((setup, options, _)) = setup else { return Ok(()) };
        return worker_end(&world, serve(&world, worker(setup.config, setup.tables), &options));
    }
    let stop = world::stop_flag().map_err(anyhow::Error::msg)?;
    let ready = setup.and_then(|(setup, options, name)| Ok((suite_sink(&args.fortress)?, setup, options, name)));
    let (mut sink, setup, options, name) = match ready {
        Ok(ready) => ready,
        Err(e) => {
            dismiss_all(&world)?;
            return Err(e);
        }
    };
    let tasks: Vec<LabelledPosition> = remaining(&setup.set, &setup.rows).into_iter().cloned().collect();
    let json = args.fortress.json();
    let done = setup.rows.len();
    let mut written = Ok(());
    let rows = distribute_in_order(
        &world,
        &tasks,
        worker(setup.config.clone(), setup.tables),
        &options,
        &|| world::stopped(&stop),
        |rank, peer| eprintln!("rank {rank} of {}: {peer}", world.size()),
        |index, rank, row: &SuiteRow| {
            if let (Some(f), true) = (sink.as_mut(), written.is_ok()) {
                written = write_row(f, row);
            }
            if !json {
                let total = setup.set.len();
                eprintln!("{}/{total} {}: {} [rank {rank}]", done + index + 1, row.id, row.verdict);
            }
        },
    );
    let rows = rows.unwrap_or_else(|e| end_job(&world, &e));
    written?;
    let all = setup.rows.into_iter().chain(rows).collect();
    let report = SuiteReport::new(name, &setup.config, &setup.set, all);
    print_suite_report(&args.fortress, &report)
}
