//! Mate search in one series: heuristics, A* and exhaustive proof.

mod heuristic;
mod search;

pub use heuristic::{Heuristic, MateContext};
pub use search::{exhaustive_mate, find_mate, MateOptions, MateOutcome, MateResult, Variant};

/// A set of Zobrist keys with a pass-through hasher (keys are already random).
pub type KeySetPub = search::KeySet;
