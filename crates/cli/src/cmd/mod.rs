//! One module per subcommand; each parses its arguments and calls library crates.

pub mod perft;
