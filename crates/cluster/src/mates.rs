//! Mate suites on many ranks (`bastion solve --epd` spread out): each selected entry is one
//! item of the queue, proved on some rank with `bastion_solver::suite::run_entry_with` (the
//! call `bastion solve --epd` makes, which clears the solver first, so an entry's result does
//! not depend on the entries solved before it on that rank). Rank 0 builds the same
//! `SuiteSummary` from the rows in suite order.

use bastion_core::Position;
use bastion_solver::epd::MateEntry;
use bastion_solver::suite::{run_entry_with, Row};
use bastion_solver::Solver;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;
use std::time::Duration;

/// One entry of a mate suite as it travels to a worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MateTask {
    /// 1-based line number in the file.
    pub line: usize,
    /// The `id` operation, if any.
    pub id: Option<String>,
    /// The position.
    pub fen: String,
    /// Mate length: positive when the side to move mates, negative when it is mated.
    pub mate: i32,
}

impl MateTask {
    /// The task for a suite entry.
    pub fn of(entry: &MateEntry) -> MateTask {
        MateTask { line: entry.line, id: entry.id.clone(), fen: entry.position.fen(), mate: entry.mate }
    }

    /// The suite entry again, on the worker.
    fn entry(&self) -> Result<MateEntry, String> {
        let position = Position::from_fen(&self.fen)
            .map_err(|e| format!("line {}: bad position {:?}: {e}", self.line, self.fen))?;
        Ok(MateEntry { line: self.line, id: self.id.clone(), position, mate: self.mate })
    }
}

/// How every rank solves: what `bastion solve --epd` is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateSettings {
    /// Transposition table size in MB.
    pub hash: usize,
    /// Time allowed per entry.
    pub limit: Duration,
    /// Prove the shortest mate (iterative deepening), as without `--within`.
    pub shortest: bool,
}

/// The work function of a mate suite for the queue, on every rank: one solver (its table
/// allocated once, at the first entry) proves the entries it is given.
pub fn mate_worker(settings: MateSettings) -> impl Fn(&MateTask) -> Result<Row, String> + Send + 'static {
    let solver: Mutex<Option<Solver<'static>>> = Mutex::new(None);
    move |task: &MateTask| {
        let entry = task.entry()?;
        let mut slot = solver.lock().map_err(|_| "an earlier entry panicked".to_string())?;
        let solver = match slot.as_mut() {
            Some(solver) => solver,
            None => slot.insert(Solver::try_new(settings.hash).map_err(|e| format!("--hash {}: {e}", settings.hash))?),
        };
        Ok(run_entry_with(solver, &entry, settings.limit, settings.shortest))
    }
}
