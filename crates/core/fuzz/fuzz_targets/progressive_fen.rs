#![no_main]
//! Fuzz target: `cargo +nightly fuzz run progressive_fen` from crates/core.
libfuzzer_sys::fuzz_target!(|data: &[u8]| bastion_fuzz::progressive_fen(data));
