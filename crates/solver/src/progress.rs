//! Progress of a running solve: one report per finished pass of the
//! iterative deepening, for displays that show a long solve as it goes.

use serde::Serialize;

/// One finished pass of the solver at a fixed solution length.
///
/// Direct mates, selfmates and `bm #-N` searches deepen one move at a time,
/// so a solve sends one of these per length tried, the last one with
/// `found` set when a solution exists; helpmates and series-movers search
/// their one length exhaustively and send a single report. A pass cut short
/// by the stop flag, the deadline or the node limit sends none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Iteration {
    /// The solution length tried, in moves as the stipulation counts them.
    pub moves: u8,
    /// Whether a solution of this length exists.
    pub found: bool,
    /// The solver's node counter ([`crate::Solver::nodes`]) when the pass ended.
    pub nodes: u64,
}

/// The callback [`crate::Solver::set_progress`] installs.
pub(crate) type ProgressHook<'s> = Box<dyn FnMut(&Iteration) + Send + 's>;
