//! Fortress detection after Guid & Bratko, "Detecting fortresses in chess"
//! (Elektrotehniški vestnik, 2012).
//!
//! A UCI engine analyses the position with MultiPV K at every depth from 2
//! to D; the backed-up evaluation of each of the K best moves is recorded per
//! depth. If the side ahead cannot make progress the curves stop changing and
//! the top moves share practically one value: a fortress. Rising curves (or
//! a mate) mean progress. When a fortress is seen, every legal move is
//! searched for a curve that keeps rising (a breakthrough, Fig. 5), and the
//! opponent's best replies to it are followed (Fig. 6).
//!
//! The curves are backed by evidence that does not depend on the level of
//! the evaluation: the progress test ([`probe`]) and, when the caller lends
//! endgame tables through [`Hooks`], their exact value ([`tablebase`]).
//! [`Hooks`] also carries a stop flag, so that an analysis can be cancelled
//! without killing the engine process.
//!
//! ```no_run
//! use bastion_fortress::{analyse, render_svg, Config};
//! let mut engine = bastion_uci_client::Engine::from_command_line("/usr/games/stockfish")?;
//! let analysis = analyse("8/k7/8/P7/8/2K5/3B4/8 w - - 0 1", &Config::default(), &mut engine)?;
//! println!("{} ({})", analysis.verdict, analysis.evidence.reason);
//! std::fs::write("curves.svg", render_svg(&analysis))?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod classify;
pub mod curve;
pub mod error;
pub mod labels;
pub mod plot;
pub mod probe;
pub mod report;
pub mod score;
pub mod suite;
pub mod tablebase;

pub use analysis::{
    analyse, analyse_with, analyse_with_progress, Analysis, Avoidance, Breakthrough, Config, Hooks, MoveJudgement,
    Stage,
};
pub use classify::{classify, Basis, Evidence, Side, Thresholds, Verdict};
pub use curve::{Curve, DepthTable, DepthTime, Point};
pub use error::FortressError;
pub use plot::{render_png, render_svg, render_time_svg, PlotKind};
pub use probe::{ProbeConfig, ProbeOutcome, ProbeStep, ProgressTest};
pub use report::{write_plot, PlotFormat};
pub use score::Eval;
pub use suite::{SuiteReport, SuiteRow};
pub use tablebase::TableValue;
