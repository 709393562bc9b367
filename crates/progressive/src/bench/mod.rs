//! Benchmarks of the mate finder (a test set timed per series length) and of
//! the player in basic endgames (king and pieces against a bare king).

pub mod endgames;
pub mod mates;

pub use endgames::{run_endgames, EndgameCase, EndgameGame, EndgameGroup, EndgameReport};
pub use mates::{calibrate, run_mates, LenStats, MateBench};
