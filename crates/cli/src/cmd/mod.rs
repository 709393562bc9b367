//! One module per subcommand; each parses its arguments and calls library crates.

pub mod bench;
pub mod book;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod epd;
pub mod fortress;
pub mod match_cmd;
pub mod nnue;
pub mod perft;
pub mod progressive;
pub mod rate;
pub mod serve;
pub mod solve;
pub mod spsa;
pub mod tb;
pub mod tune;
pub mod uci;
