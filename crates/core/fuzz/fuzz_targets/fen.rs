#![no_main]
//! Fuzz target: `cargo +nightly fuzz run fen` from crates/core.
libfuzzer_sys::fuzz_target!(|data: &[u8]| bastion_core::fuzzing::fen(data));
