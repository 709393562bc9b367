//! Engine-versus-engine match tooling for Bastion.
//!
//! For now this crate only provides [`stats`]: the statistics a match runner
//! needs to report Elo differences with error bars, the likelihood of
//! superiority, and to stop a test early with a sequential probability ratio
//! test (SPRT), computed the way fishtest, OpenBench and fastchess do.

pub mod stats;
