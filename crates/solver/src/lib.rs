//! Bastion's mate solver.
//!
//! Direct mates (`#n`), selfmates (`s#n`), helpmates (`h#n`) and
//! series-movers (`ser-#n`) by zero-evaluation search: only mate and
//! stalemate carry a value, so alpha-beta reduces to a proof search, and
//! iterative deepening by moves makes the first mate found the shortest.
//!
//! ```
//! use bastion_core::Position;
//! use bastion_solver::{solve_mate, Solver, SolveOptions, Stipulation};
//! use std::sync::atomic::AtomicBool;
//!
//! let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
//! let stop = AtomicBool::new(false);
//! let sol = solve_mate(&pos, 3, &stop).unwrap();
//! assert_eq!(sol.moves, 1);
//! assert_eq!(pos.to_uci(sol.pv[0]), "a1a8");
//!
//! let mut solver = Solver::new(16);
//! let report = solver.solve(&pos, Stipulation::Direct(1), &SolveOptions::default()).unwrap();
//! assert_eq!(report.keys.len(), 1);
//! ```

#![warn(missing_docs)]

pub mod checks;
pub mod epd;
mod mate;
pub mod notation;
mod other;
pub mod progress;
pub mod search;
pub mod solve;
pub mod stipulation;
pub mod suite;
pub mod suite_report;
pub mod text;
pub mod tt;
pub mod verify;

pub use progress::Iteration;
pub use search::{Aborted, Solver};
pub use solve::{solve_mate, Key, MateSolution, Node, Report, SolveOptions, Status};
pub use stipulation::Stipulation;
