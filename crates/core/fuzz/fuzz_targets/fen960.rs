#![no_main]
//! Fuzz target: `cargo +nightly fuzz run fen960` from crates/core.
libfuzzer_sys::fuzz_target!(|data: &[u8]| bastion_fuzz::fen960(data));
