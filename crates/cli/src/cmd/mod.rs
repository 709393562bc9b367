//! One module per subcommand; each parses its arguments and calls library crates.

pub mod bench;
pub mod book;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod conversion;
pub mod epd;
pub mod fortress;
pub mod match_cmd;
pub mod nnue;
pub mod paired;
pub mod perft;
pub mod progressive;
pub mod rate;
pub mod serve;
pub mod solve;
pub mod spsa;
pub mod tb;
pub mod timeuse;
pub mod tune;
pub mod uci;

/// Calls `f` with every game of the PGN files in `paths` in order (`-` reads standard
/// input); a file that cannot be opened or read is an error that names it.
pub fn for_each_pgn_game(
    paths: &[std::path::PathBuf],
    mut f: impl FnMut(bastion_arena::pgn::PgnGame),
) -> anyhow::Result<()> {
    use anyhow::Context;
    for path in paths {
        bastion_arena::pgn::for_each_game(open_input(path)?, |game| {
            f(game);
            true
        })
        .with_context(|| format!("cannot read {}", path.display()))?;
    }
    Ok(())
}

/// A PGN (or other text) input named on the command line: standard input for `-`, else a
/// regular file, streamed (a FIFO or a directory is refused rather than waited on).
pub fn open_input(path: &std::path::Path) -> anyhow::Result<Box<dyn std::io::Read>> {
    use anyhow::Context;
    if path.as_os_str() == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    let file = bastion_core::io::open_checked(path, u64::MAX)
        .map_err(bastion_core::io::BoundedReadError::into_io)
        .with_context(|| format!("cannot open {}", path.display()))?;
    Ok(Box::new(std::io::BufReader::new(file)))
}
