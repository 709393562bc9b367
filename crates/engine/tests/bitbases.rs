//! The engine with Bastion's 2-bit WDL bitbases (`.bwdl` files in a `BastionTBPath`
//! directory, no DTM tables): the root keeps only the moves that keep the win, and
//! the search probes the bitbases where a capture or pawn move enters a covered
//! ending.

mod common;

use bastion_core::{Position, TablebaseProbe};
use bastion_engine::protocol::TbLoader;
use bastion_engine::{Engine, EngineOptions, Limits, Score};
use bastion_tablebase::driver::build;
use bastion_tablebase::format::TableFile;
use bastion_tablebase::{Bitbase, Material, Probers};
use common::{field, session, until, until_bestmove};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tempfile::TempDir;

/// A directory holding only bitbases, no DTM tables: those of `endings` and of
/// their sub-endings. Returned with the temporary directory that holds it.
fn bitbase_dir(endings: &[&str]) -> (TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let (dtm, dir) = (root.path().join("dtm"), root.path().join("bwdl"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&dtm).unwrap();
    let endings: Vec<Material> = endings.iter().map(|e| Material::parse(e).unwrap()).collect();
    for r in build(&endings, &dtm, false, |_| {}).unwrap() {
        let t = TableFile::open(&dtm.join(format!("{}.btb", r.ending))).unwrap().load().unwrap();
        Bitbase::from_table(&t).write(&dir).unwrap();
    }
    (root, dir)
}

/// The `BastionTBPath` loader of the `bastion` binary, in small.
fn loader() -> TbLoader {
    Box::new(|_option: &str, path: &str| {
        if path.is_empty() {
            return Ok(None);
        }
        let p = Probers::open::<&Path>(&[Path::new(path)], None).map_err(|e| e.to_string())?;
        Ok(Some(Arc::new(p) as Arc<dyn TablebaseProbe>))
    })
}

/// KRKN, White to move: only Ke3 wins (the tables' verdict); the search without
/// tables prefers a rook move at this depth.
const KRKN: &str = "8/8/8/6R1/5K2/8/3n4/k7 w - - 0 1";

/// Searches `fen` to `depth`: the score, the largest `tbhits` reported, the move.
fn search(tb: Option<Arc<dyn TablebaseProbe>>, fen: &str, depth: i32) -> (Score, u64, String) {
    let mut e = Engine::new(EngineOptions { hash_mb: 8, ..EngineOptions::default() });
    e.set_tablebase(tb);
    let pos = Position::from_fen(fen).unwrap();
    let mut tbhits = 0;
    let r = e.search(&pos, &[], &Limits::depth(depth), &mut |i| tbhits = tbhits.max(i.tbhits));
    (r.score, tbhits, pos.san(r.best.unwrap()))
}

fn probers(dir: &Path) -> Arc<dyn TablebaseProbe> {
    let tb = Probers::open::<&Path>(&[dir], None).unwrap();
    assert!(tb.dtm().is_none() && tb.bitbases().is_some());
    Arc::new(tb)
}

#[test]
fn the_engine_finds_the_only_winning_move_of_a_krkn_position() {
    let (_tmp, dir) = bitbase_dir(&["KRKN"]);
    let (score, tbhits, best) = search(Some(probers(&dir)), KRKN, 6);
    assert_eq!(best, "Ke3");
    assert!(matches!(score, Score::Cp(c) if c > 10_000), "{score:?}");
    assert!(tbhits > 0);
    // Without tables the search sees a rook against a knight, not a won ending.
    let (plain, hits, _) = search(None, KRKN, 6);
    assert!(matches!(plain, Score::Cp(c) if c < 10_000), "{plain:?}");
    assert_eq!(hits, 0);
}

#[test]
fn the_search_probes_bitbases_after_captures() {
    // Four men with the 3-man bitbases: the root is not covered, the positions after
    // captures are (Qxa5 leaves KQK).
    let (_tmp, dir) = bitbase_dir(&["KQK", "KRK"]);
    let fen = "8/8/8/r4k2/8/8/8/Q1K5 w - - 0 1";
    let (_, tbhits, best) = search(Some(probers(&dir)), fen, 6);
    assert_eq!(best, "Qxa5+");
    assert!(tbhits > 0);
    // The table win after Qxa5+ is inside the window of the principal variation, where
    // it must hold as the node's floor: the root reports a table win, not the queen's
    // material score that the search alone would give.
    let (score, _, _) = search(Some(probers(&dir)), fen, 12);
    assert!(matches!(score, Score::Cp(c) if c > 10_000), "{score:?}");
}

#[test]
fn bastion_tb_path_loads_a_directory_of_bitbases() {
    let (_tmp, dir) = bitbase_dir(&["KRKN"]);
    let (uci, rx) = session();
    let mut uci = uci.with_tablebase_loader(loader());
    uci.handle(&format!("setoption name BastionTBPath value {}", dir.display()));
    uci.handle("isready");
    let out = until(&rx, "readyok");
    assert!(out.iter().any(|l| l.starts_with("info string BastionTBPath set to")), "{out:?}");
    uci.handle(&format!("position fen {KRKN}"));
    uci.handle("go depth 6");
    let lines = until_bestmove(&rx);
    let last = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(field(last, "tbhits").unwrap().parse::<u64>().unwrap() > 0, "{last}");
    assert!(lines.last().unwrap().starts_with("bestmove f4e3"), "{lines:#?}");
}
