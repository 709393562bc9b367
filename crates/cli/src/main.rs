//! `bastion`: one command for the whole suite. With no subcommand it speaks UCI.

mod cmd;

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
    /// Count leaf nodes of the legal move tree (move-generator test and benchmark).
    Perft(cmd::perft::PerftArgs),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => cmd::perft::run(args),
        None => Err(anyhow::anyhow!("the UCI engine is not built yet; try `bastion perft 5`")),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
