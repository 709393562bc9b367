//! `bastion uci` (also `bastion` with no subcommand): the UCI chess engine.

use anyhow::Result;
use clap::Args;

/// Arguments of `bastion uci`.
#[derive(Args, Debug, Default)]
pub struct UciArgs {}

/// Runs the engine on stdin/stdout until `quit` or end of input.
pub fn run(_args: UciArgs) -> Result<()> {
    // Tablebase options (SyzygyPath / BastionTBPath) are accepted by the engine; a loader
    // is plugged in here once a tablebase prober implementing
    // `bastion_engine::TbProber` is available to the CLI.
    bastion_engine::uci::run_stdio(None);
    Ok(())
}
