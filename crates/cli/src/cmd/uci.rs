//! `bastion uci` (also `bastion` with no subcommand): the UCI chess engine.
//!
//! Plugs Bastion's tablebases into the engine: `SyzygyPath` loads Syzygy WDL tables,
//! `BastionTBPath` our own DTM tables (exact mate distances); both may be set.

use anyhow::Result;
use bastion_core::{Move, Position};
use bastion_engine::{TbProber, Wdl};
use bastion_tablebase::{Dtm, SyzygyProber, SyzygyWdl, Tablebases};
use clap::Args;
use std::sync::{Arc, Mutex};

/// Arguments of `bastion uci`.
#[derive(Args, Debug, Default)]
pub struct UciArgs {}

/// The tables loaded through the two UCI options.
#[derive(Default)]
struct Loaded {
    syzygy: Option<Arc<SyzygyProber>>,
    bastion: Option<Arc<Tablebases>>,
}

/// Both kinds of table behind the engine's prober trait: DTM first, Syzygy WDL second.
struct Combined {
    syzygy: Option<Arc<SyzygyProber>>,
    bastion: Option<Arc<Tablebases>>,
}

fn dtm_plies(d: Dtm) -> i32 {
    match d {
        Dtm::Win(n) => n as i32,
        Dtm::Loss(n) => -(n as i32),
        Dtm::Draw => 0,
    }
}

impl TbProber for Combined {
    fn max_pieces(&self) -> u32 {
        let s = self.syzygy.as_ref().map_or(0, |s| s.max_pieces());
        let b = self.bastion.as_ref().map_or(0, |b| b.max_men());
        s.max(b) as u32
    }

    fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if let Some(d) = self.bastion.as_ref().and_then(|b| b.probe_dtm(pos)) {
            return Some(match d {
                Dtm::Win(_) => Wdl::Win,
                Dtm::Loss(_) => Wdl::Loss,
                Dtm::Draw => Wdl::Draw,
            });
        }
        let s = self.syzygy.as_ref()?;
        if pos.occupied().count() as usize > s.max_pieces() {
            return None;
        }
        s.probe_wdl(pos).ok().map(|w| match w {
            SyzygyWdl::Loss => Wdl::Loss,
            SyzygyWdl::BlessedLoss => Wdl::BlessedLoss,
            SyzygyWdl::Draw => Wdl::Draw,
            SyzygyWdl::CursedWin => Wdl::CursedWin,
            SyzygyWdl::Win => Wdl::Win,
        })
    }

    fn probe_dtm(&self, pos: &Position) -> Option<i32> {
        self.bastion.as_ref()?.probe_dtm(pos).map(dtm_plies)
    }

    fn probe_root(&self, pos: &Position) -> Option<Vec<(Move, Wdl, Option<i32>)>> {
        if let Some(values) = self.bastion.as_ref().and_then(|b| b.try_move_values(pos).ok().flatten()) {
            return Some(
                values
                    .into_iter()
                    .map(|mv| {
                        let (w, d) = match mv.value {
                            Dtm::Win(n) => (Wdl::Win, Some(n as i32)),
                            Dtm::Loss(n) => (Wdl::Loss, Some(n as i32)),
                            Dtm::Draw => (Wdl::Draw, None),
                        };
                        (mv.mv, w, d)
                    })
                    .collect(),
            );
        }
        // Syzygy: rank by WDL of each child (the engine's default derivation).
        let mut out = Vec::new();
        for m in pos.legal_moves().iter().copied() {
            let child = pos.play(m);
            if child.is_checkmate() {
                out.push((m, Wdl::Win, Some(1)));
                continue;
            }
            let w = if child.halfmove_clock() == 0 {
                self.probe_wdl(&child)?
            } else {
                // Not right after a zeroing move: WDL-after-zeroing may be off; skip ranking.
                return None;
            };
            out.push((m, w.flip(), None));
        }
        Some(out)
    }
}

fn loader() -> bastion_engine::uci::TbLoader {
    let state = Arc::new(Mutex::new(Loaded::default()));
    Box::new(move |option: &str, path: &str| {
        let mut st = state.lock().unwrap_or_else(|p| p.into_inner());
        let dirs: Vec<&str> = path.split([':', ';']).filter(|d| !d.trim().is_empty()).collect();
        if option.eq_ignore_ascii_case("SyzygyPath") {
            st.syzygy = None;
            match dirs.as_slice() {
                [] => {}
                [dir] => {
                    let (p, files) =
                        SyzygyProber::open(std::path::Path::new(dir.trim())).map_err(|e| format!("{e}"))?;
                    if files == 0 {
                        return Err(format!("no Syzygy files found in {path:?}"));
                    }
                    st.syzygy = Some(Arc::new(p));
                }
                _ => return Err("SyzygyPath takes one directory".to_string()),
            }
        } else {
            st.bastion = None;
            if !dirs.is_empty() {
                let tb = Tablebases::open(&dirs).map_err(|e| format!("{e}"))?;
                if tb.endings().is_empty() {
                    return Err(format!("no Bastion tables (*.btb) found in {path:?}"));
                }
                st.bastion = Some(Arc::new(tb));
            }
        }
        if st.syzygy.is_none() && st.bastion.is_none() {
            return Ok(None);
        }
        let combined: Arc<dyn TbProber> = Arc::new(Combined { syzygy: st.syzygy.clone(), bastion: st.bastion.clone() });
        Ok(Some(combined))
    })
}

/// Runs the engine on stdin/stdout until `quit` or end of input.
pub fn run(_args: UciArgs) -> Result<()> {
    bastion_engine::uci::UciSession::new(std::io::stdout())
        .with_tablebase_loader(loader())
        .with_book_loader(book_loader())
        .with_mate_prover(Arc::new(SolverProver))
        .run(std::io::stdin().lock());
    Ok(())
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
