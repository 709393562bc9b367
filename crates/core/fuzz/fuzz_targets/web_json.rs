#![no_main]
//! Fuzz target: `cargo +nightly fuzz run web_json` from crates/core.
libfuzzer_sys::fuzz_target!(|data: &[u8]| bastion_fuzz::web_json(data));
