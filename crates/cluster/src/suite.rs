//! EPD suites on many ranks: the positions go out through the queue one at a time, each rank
//! runs them with `bastion_arena::suite::run_suite` (the call `bastion epd` makes), and rank 0
//! puts the results back in suite order and builds the same report.

use bastion_arena::suite::{run_suite, PositionResult, SuiteConfig, SuiteReport};
use bastion_core::epd::Epd;
use serde::{Deserialize, Serialize};

/// One position of a suite, as it travels to a worker: its number in the suite (from 1) and
/// its EPD line. Only rank 0 reads the suite file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteTask {
    /// Number in the suite, from 1 (the report's `index`).
    pub index: usize,
    /// The EPD record.
    pub line: String,
}

/// A position's result as it travels back to rank 0, with the engine's name as the worker's
/// engine reported it (the report is headed by it).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteOutcome {
    /// The engine's name: its UCI `id name` when the configured name is its command line.
    pub engine: String,
    /// The position's result.
    pub result: PositionResult,
}

/// Reads a suite's text into tasks, numbered as `bastion epd` numbers them (blank lines and
/// `#` comments skipped). `Err` names the first line that is not an EPD record, as
/// `source:line: why`; `limit` keeps the first N positions.
pub fn read_suite(source: &str, text: &str, limit: Option<usize>) -> Result<Vec<SuiteTask>, String> {
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        Epd::parse(line).map_err(|e| format!("{source}:{}: {e}", i + 1))?;
        tasks.push(SuiteTask { index: tasks.len() + 1, line: line.to_string() });
    }
    if let Some(n) = limit {
        tasks.truncate(n);
    }
    if tasks.is_empty() {
        return Err(format!("{source} holds no positions"));
    }
    Ok(tasks)
}

/// Runs one position as `bastion epd` would (its own engine process, `ucinewgame` first), for
/// the work function of the queue. `Err` only when the engine cannot be used at all, which ends
/// the job as it ends a single-process run; a position the engine fails on is a result with an
/// `error`, as in the single-process report.
pub fn run_position(config: &SuiteConfig, task: &SuiteTask) -> Result<SuiteOutcome, String> {
    let epd = Epd::parse(&task.line).map_err(|e| format!("position {}: {e}", task.index))?;
    let report = run_suite(std::slice::from_ref(&epd), config, &|| false, |_| {})?;
    let mut result = report.results.into_iter().next().ok_or("the suite runner returned no result")?;
    result.index = task.index;
    Ok(SuiteOutcome { engine: report.engine, result })
}

/// The report of the whole suite from the outcomes in suite order: what `run_suite` computes
/// over its own results, so the report equals a single-process run's.
pub fn assemble_report(config: &SuiteConfig, outcomes: Vec<SuiteOutcome>) -> Result<SuiteReport, String> {
    // run_suite starts its engine at the first position that has criteria and from then on
    // reports the engine's own name; an outcome whose position was never searched carries the
    // configured name.
    let name = outcomes
        .iter()
        .map(|o| &o.engine)
        .find(|n| **n != config.engine.name)
        .cloned()
        .unwrap_or_else(|| config.engine.name.clone());
    let results = outcomes.into_iter().map(|o| o.result).collect();
    SuiteReport::from_results(name, config, results)
}
