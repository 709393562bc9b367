//! One module per subcommand; each parses its arguments and calls library crates.

pub mod perft;
pub mod fortress;
pub mod serve;
pub mod tb;
pub mod progressive;
pub mod solve;
pub mod uci;
pub mod bench;
pub mod tune;
pub mod match_cmd;
pub mod epd;
pub mod book;
