#![no_main]
//! Fuzz target: `cargo +nightly fuzz run uci_commands` from crates/core.
libfuzzer_sys::fuzz_target!(|data: &[u8]| bastion_fuzz::uci_commands(data));
