//! `bastion`: one command for the whole suite. With no subcommand it speaks UCI.

mod cmd;
mod errors;
mod plural;

use clap::{Parser, Subcommand};

/// Bastion chess-programming suite.
#[derive(Parser)]
#[command(name = "bastion", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a match between two UCI engines: Elo with error bars, SPRT, PGN, adjudication.
    Match(cmd::match_cmd::MatchArgs),
    /// Tune an engine's numeric UCI options by SPSA in game pairs against itself.
    Spsa(cmd::spsa::SpsaArgs),
    /// Ratings of every player in PGN files (maximum likelihood, error bars, anchors).
    Rate(cmd::rate::RateArgs),
    /// Two versions of an engine compared game by game on the same openings, colours and opponent.
    Paired(cmd::paired::PairedArgs),
    /// How each engine spent its clock in PGN games: time and depth a move, lowest clock, profile.
    Timeuse(cmd::timeuse::TimeUseArgs),
    /// How each engine's clear advantages and disadvantages in PGN games ended (conversion).
    Conversion(cmd::conversion::ConversionArgs),
    /// Run an EPD test suite (bm/am/dm) on a UCI engine: solved count, times, table.
    Epd(cmd::epd::EpdArgs),
    /// Polyglot opening books: build from PGN, probe, learn from games.
    Book(cmd::book::BookArgs),
    /// Count leaf nodes of the legal move tree (move-generator test and benchmark).
    Perft(cmd::perft::PerftArgs),
    /// Detect fortresses from evaluation curves over depth; breakthroughs, avoidance, plots.
    Fortress(cmd::fortress::FortressArgs),
    /// Start the local web app (board, play, analysis, solver, tablebase, fortress) and its JSON API.
    Serve(cmd::serve::ServeArgs),
    /// Endgame tablebases: generate, probe, verify, statistics, bitbases, Syzygy.
    Tb(cmd::tb::TbArgs),
    /// Progressive (1-2-3) chess: mate finder, series, play, self-play, mate test set.
    Progressive(cmd::progressive::ProgressiveArgs),
    /// Solve mate problems (#N, h#N, s#N, ser-#N) or benchmark an EPD mate suite.
    Solve(cmd::solve::SolveArgs),
    /// Run the UCI chess engine on stdin/stdout (the default with no subcommand).
    Uci(cmd::uci::UciArgs),
    /// Search fixed positions to a fixed depth: node-count signature and speed.
    Bench(cmd::bench::BenchArgs),
    /// Texel-tune the evaluation: generate self-play data or fit the weights.
    Tune(cmd::tune::TuneArgs),
    /// Neural evaluation: label self-play data with search scores, train a network.
    Nnue(cmd::nnue::NnueArgs),
    /// Work spread over the ranks of an MPI job (`mpirun -np N bastion cluster …`).
    #[cfg(feature = "mpi")]
    Cluster(cmd::cluster::ClusterArgs),
}

/// `println!` panics when the reader of our stdout has gone (`bastion tb stats KRK | head -1`).
/// That is a normal way to stop reading, not a crash: leave quietly with success. Every other
/// panic keeps the default report.
fn exit_quietly_on_closed_stdout() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
}

fn main() -> std::process::ExitCode {
    exit_quietly_on_closed_stdout();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Match(args)) => cmd::match_cmd::run(args),
        Some(Command::Spsa(args)) => cmd::spsa::run(args),
        Some(Command::Rate(args)) => cmd::rate::run(args),
        Some(Command::Paired(args)) => cmd::paired::run(args),
        Some(Command::Timeuse(args)) => cmd::timeuse::run(args),
        Some(Command::Conversion(args)) => cmd::conversion::run(args),
        Some(Command::Epd(args)) => cmd::epd::run(args),
        Some(Command::Book(args)) => cmd::book::run(args),
        Some(Command::Perft(args)) => cmd::perft::run(args),
        Some(Command::Fortress(args)) => cmd::fortress::run(args),
        Some(Command::Serve(args)) => cmd::serve::run(args),
        Some(Command::Tb(args)) => cmd::tb::run(args),
        Some(Command::Progressive(args)) => cmd::progressive::run(args),
        Some(Command::Solve(args)) => cmd::solve::run(args),
        Some(Command::Uci(args)) => cmd::uci::run(args),
        Some(Command::Bench(args)) => cmd::bench::run(args),
        Some(Command::Tune(args)) => cmd::tune::run(args),
        Some(Command::Nnue(args)) => cmd::nnue::run(args),
        #[cfg(feature = "mpi")]
        Some(Command::Cluster(args)) => cmd::cluster::run(args),
        None => cmd::uci::run(cmd::uci::UciArgs::default()),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // A closed pipe (`bastion perft 6 | head`) is a normal way to stop reading.
        Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) => {
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}", errors::chain_text(&e));
            std::process::ExitCode::FAILURE
        }
    }
}
