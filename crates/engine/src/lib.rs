//! Bastion's chess engine: search, evaluation and the UCI protocol.
//!
//! Other parts of Bastion (fortress detector, arena, web app) run searches in
//! process through [`Engine`]; the `bastion` binary speaks UCI through [`protocol`].

#![warn(missing_docs)]

pub mod book;
pub mod eval;
pub mod mate_prover;
pub mod options;
pub mod score;
pub mod search;
pub mod tb;
pub mod tt;

pub use book::{BookLoader, BookProber};
pub use mate_prover::{MateBudget, MateProver};
pub use options::{EngineOptions, Margins, SearchParams, SyzygyOptions, TimeConstants};
pub use score::Score;
pub use search::{Engine, Limits, PvLine, ScoreBound, SearchControl, SearchInfo, SearchResult};
pub use tb::{TablebaseProbe, Wdl};
pub mod bench;
pub mod nnue;
pub mod protocol;
