//! Mate search in one series: heuristics, A* and exhaustive proof.

mod heuristic;
mod search;

pub use heuristic::{Heuristic, MateContext};
pub use search::{exhaustive_mate, find_mate, KeyHasher, KeySet, MateOptions, MateOutcome, MateResult, Variant};
