#![no_main]
//! Fuzz target: `cargo +nightly fuzz run pgn` from crates/core.
libfuzzer_sys::fuzz_target!(|data: &[u8]| bastion_fuzz::pgn(data));
