//! The engine with Bastion's own DTZ tables (`*.dtz.btb` beside the DTM tables in a
//! `BastionTBPath` directory, no Syzygy files) keeps a KPK win under the 50-move
//! rule with the halfmove clock high: the root moves are ranked by distance to
//! zeroing, as with Syzygy's DTZ. With the DTM tables alone the shortest mate is
//! not the fastest pawn move, and the clock runs out.

use bastion_core::{Color, Position, TablebaseProbe};
use bastion_engine::{Engine, EngineOptions, Limits};
use bastion_tablebase::driver::build_metric;
use bastion_tablebase::{Dtm, Material, Metric, Probers, Tablebases};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tempfile::TempDir;

/// KPK and its sub-endings, DTM and DTZ tables in a new directory `root`, and the DTM
/// tables alone in `root/dtm`: `root` and the path of `root/dtm`.
fn tables() -> (TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let dtm = root.path().join("dtm");
    std::fs::create_dir_all(&dtm).unwrap();
    build_metric(&[Material::parse("KPK").unwrap()], root.path(), Metric::Dtz, false, |_| {}).unwrap();
    for f in std::fs::read_dir(root.path()).unwrap() {
        let p = f.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".btb") && !name.ends_with(".dtz.btb") {
            std::fs::copy(&p, dtm.join(&name)).unwrap();
        }
    }
    (root, dtm)
}

/// A KPK position, White to move and winning with distance to zeroing `d`, where
/// no move of the shortest mate is a move of the shortest distance to zeroing; the
/// halfmove clock is set to `99 - d`, so only the fastest zeroing line keeps the win.
fn tight_position(dtm: &Tablebases, dtz: &Tablebases) -> Position {
    let kpk = Material::parse("KPK").unwrap();
    let (_, path) = dtz.endings().iter().find(|(m, _)| *m == kpk).unwrap();
    let t = bastion_tablebase::format::TableFile::open_metric(path, Metric::Dtz).unwrap().load().unwrap();
    let mut best: Option<(u16, Position)> = None;
    for idx in 0..t.indexer.size() {
        let Some(Dtm::Win(d)) = t.dtm(Color::White, idx) else { continue };
        if best.as_ref().is_some_and(|(b, _)| *b >= d) {
            continue;
        }
        let pos = t.indexer.position(idx, Color::White).unwrap();
        let fastest: Vec<_> = dtz.best_moves(&pos).unwrap().into_iter().map(|m| m.mv).collect();
        let mating = dtm.best_moves(&pos).unwrap();
        if mating.iter().all(|m| !fastest.contains(&m.mv)) {
            best = Some((d, pos));
        }
    }
    let (d, pos) = best.expect("a KPK position whose shortest mate is not its fastest zeroing");
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    Position::from_fen(&format!("{} {} {} {} {} 1", fields[0], fields[1], fields[2], fields[3], 99 - d)).unwrap()
}

/// Plays the game from `start`: the engine (White, tables `tb`) against the longest
/// defence by distance to zeroing. Returns how it ended: `Ok(plies)` when White
/// mated, `Err(reason)` when the win was lost (a draw by the 50-move rule included).
fn play(tb: Arc<dyn TablebaseProbe>, defence: &Tablebases, start: &Position) -> Result<usize, String> {
    let mut e = Engine::new(EngineOptions { hash_mb: 8, ..EngineOptions::default() });
    e.set_tablebase(Some(tb.clone()));
    let mut pos = start.clone();
    let mut history: Vec<u64> = Vec::new();
    for ply in 0..300 {
        if pos.is_checkmate() {
            return Ok(ply);
        }
        if pos.halfmove_clock() >= 100 {
            return Err(format!("50-move rule after {ply} plies at {}", pos.fen()));
        }
        let mv = if pos.side_to_move() == Color::White {
            if tb.probe_wdl(&pos).map(|w| w.result()) != Some(1) {
                return Err(format!("win lost after {ply} plies at {}", pos.fen()));
            }
            e.search(&pos, &history, &Limits::depth(4), &mut |_| {}).best.unwrap()
        } else {
            defence.best_moves(&pos).unwrap()[0].mv
        };
        history.push(pos.key());
        pos = pos.play(mv);
    }
    Err("no mate in 300 plies".into())
}

#[test]
fn the_engine_keeps_a_kpk_win_with_the_clock_high_using_bastion_dtz() {
    let (tmp, dtm_dir) = tables();
    let root = tmp.path();
    let dtm = Tablebases::open(&[root]).unwrap();
    let dtz = Tablebases::open_metric(&[root], Metric::Dtz).unwrap();
    let start = tight_position(&dtm, &dtz);
    let with_dtz = Probers::open::<&Path>(&[root], None).unwrap();
    assert!(with_dtz.dtz().is_some() && with_dtz.syzygy().is_none());
    let plies = play(Arc::new(with_dtz), &dtz, &start);
    let plies = plies.unwrap_or_else(|e| panic!("{e} from {}", start.fen()));
    eprintln!("from {}: mate after {plies} plies with Bastion's DTZ", start.fen());
    // The DTM tables alone play the shortest mate, and the clock runs out first.
    let dtm_only = Probers::open::<&Path>(&[&dtm_dir], None).unwrap();
    assert!(dtm_only.dtz().is_none());
    let lost = play(Arc::new(dtm_only), &dtz, &start);
    assert!(lost.as_ref().is_err_and(|e| e.starts_with("50-move")), "{lost:?} from {}", start.fen());
    eprintln!("with DTM tables alone: {}", lost.unwrap_err());
}
