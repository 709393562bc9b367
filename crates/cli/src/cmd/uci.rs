//! `bastion uci` (also `bastion` with no subcommand): the UCI chess engine.
//!
//! Plugs Bastion's tablebases into the engine: `SyzygyPath` loads Syzygy tables (WDL in
//! the search, DTZ to rank the root moves), `BastionTBPath` our own DTM tables (exact mate
//! distances) and 2-bit WDL bitbases (memory-mapped); both options may be set.

use anyhow::Result;
use bastion_core::{Move, Position, TablebaseProbe};
use bastion_tablebase::Probers;
use clap::Args;
use std::sync::{Arc, Mutex};

/// Arguments of `bastion uci`.
#[derive(Args, Debug, Default)]
pub struct UciArgs {}

/// Loads the tables the two UCI options name into one [`Probers`] (DTM first,
/// Syzygy second); each option replaces only its own kind of table.
fn loader() -> bastion_engine::protocol::TbLoader {
    let state = Arc::new(Mutex::new(Probers::default()));
    Box::new(move |option: &str, path: &str| {
        let mut probers = state.lock().unwrap_or_else(|p| p.into_inner());
        let dirs: Vec<&str> = path.split([':', ';']).filter(|d| !d.trim().is_empty()).collect();
        let opened = if option.eq_ignore_ascii_case("SyzygyPath") {
            match dirs.as_slice() {
                [] => probers.set_syzygy(None),
                [dir] => probers.set_syzygy(Some(std::path::Path::new(dir.trim()))),
                _ => {
                    probers.set_syzygy(None).map_err(|e| e.to_string())?;
                    return Err("SyzygyPath takes one directory".to_string());
                }
            }
        } else {
            probers.set_dtm(&dirs)
        };
        opened.map_err(|e| e.to_string())?;
        if probers.is_empty() {
            return Ok(None);
        }
        Ok(Some(Arc::new(probers.clone()) as Arc<dyn TablebaseProbe>))
    })
}

/// Runs the engine on stdin/stdout until `quit` or end of input.
pub fn run(_args: UciArgs) -> Result<()> {
    session(std::io::stdout()).run(std::io::stdin().lock());
    Ok(())
}

/// An engine session writing to `out`, wired as the `bastion` binary wires it: tablebases
/// (`SyzygyPath`, `BastionTBPath`), the opening book and the mate solver. `bastion cluster
/// uci` gives each rank one.
pub(crate) fn session<W: std::io::Write + Send + 'static>(out: W) -> bastion_engine::protocol::UciSession<W> {
    bastion_engine::protocol::UciSession::new(out)
        .with_tablebase_loader(loader())
        .with_book_loader(book_loader())
        .with_mate_prover(Arc::new(SolverProver))
}

/// The mate solver behind the engine's mate-sequence optimizer (option MateSolver).
struct SolverProver;

impl bastion_engine::MateProver for SolverProver {
    fn shortest_mate(&self, pos: &Position, max_moves: u32, budget: &bastion_engine::MateBudget) -> Option<Vec<Move>> {
        let mut solver = bastion_solver::Solver::new(8);
        solver.set_stop(budget.stop);
        solver.set_deadline(budget.deadline);
        solver.set_node_limit(Some(budget.nodes));
        let n = solver.shortest_mate(pos, u8::try_from(max_moves).ok()?).ok()??;
        solver.main_line(pos, n).ok()
    }
}

/// A Polyglot book behind the engine's book trait (options OwnBook / BookFile).
struct Polyglot(bastion_arena::book::PolyglotBook);

impl bastion_engine::BookProber for Polyglot {
    fn pick(&self, pos: &Position, random: u64) -> Option<Move> {
        self.0.pick_weighted(pos, random)
    }
}

fn book_loader() -> bastion_engine::BookLoader {
    Box::new(|path: &str| {
        let book = bastion_arena::book::PolyglotBook::open(path).map_err(|e| e.to_string())?;
        Ok(Arc::new(Polyglot(book)) as Arc<dyn bastion_engine::BookProber>)
    })
}
