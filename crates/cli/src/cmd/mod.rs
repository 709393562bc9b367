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
