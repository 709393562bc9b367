//! The engine on real Syzygy files: the UCI options, DTZ at the root keeping wins
//! within the 50-move rule, the 50-move option on cursed wins, and `tbhits`.
//!
//! The tables are expected in `../shared/data/syzygy` beside the repository
//! (`SYZYGY_DIR` overrides); without them each test says so and passes.

mod common;

use bastion_core::{Position, TablebaseProbe, Wdl};
use bastion_engine::protocol::TbLoader;
use bastion_engine::{Engine, EngineOptions, Limits, Score, SyzygyOptions};
use bastion_tablebase::Probers;
use common::{field, session, until, until_bestmove};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The shared tables, or `None` (with a message) when they are not there.
fn table_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SYZYGY_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy"));
    if dir.join("KQvK.rtbw").is_file() && dir.join("KQvK.rtbz").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: no Syzygy tables in {} (set SYZYGY_DIR)", dir.display());
        None
    }
}

fn tables(dir: &Path) -> Arc<Probers> {
    Arc::new(Probers::open::<&Path>(&[], Some(dir)).unwrap())
}

/// The `SyzygyPath` loader the `bastion` binary installs, in small.
fn loader() -> TbLoader {
    Box::new(|_option: &str, path: &str| {
        if path.is_empty() {
            return Ok(None);
        }
        let p = Probers::open::<&Path>(&[], Some(Path::new(path))).map_err(|e| e.to_string())?;
        Ok(Some(Arc::new(p) as Arc<dyn TablebaseProbe>))
    })
}

fn engine(tb: Option<Arc<Probers>>, syzygy: SyzygyOptions) -> Engine {
    let mut e = Engine::new(EngineOptions { hash_mb: 8, syzygy, ..EngineOptions::default() });
    e.set_tablebase(tb.map(|t| t as Arc<dyn TablebaseProbe>));
    e
}

fn with_clock(fen: &str, clock: u32) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    pos.set_clocks(clock, 60);
    pos
}

/// The defence that resists longest by the tables: a draw if any move reaches one,
/// else the move after which the winner is furthest from zeroing.
fn defend(tb: &Probers, pos: &Position) -> bastion_core::Move {
    let value = |m: &bastion_core::Move| {
        let child = pos.play(*m);
        if child.legal_moves().is_empty() {
            return (i32::from(!child.in_check()) * 1000, 0);
        }
        let wdl = tb.probe_wdl(&child).unwrap();
        let dtz = tb.probe_dtz(&child).unwrap();
        (-i32::from(wdl.result()), dtz)
    };
    pos.legal_moves().iter().copied().max_by_key(value).unwrap()
}

/// How a game played out from a won position ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    Mate,
    FiftyMoves,
    Repetition,
    Other(String),
}

/// The engine (Syzygy at `nodes` a move) plays the won side of `pos` against the
/// longest defence until mate, a 50-move or repetition draw, or 300 plies.
fn play_out(tb: &Arc<Probers>, pos: &Position, nodes: u64, use_tables: bool) -> (End, Vec<String>) {
    let winner = pos.side_to_move();
    let mut e = engine(use_tables.then(|| Arc::clone(tb)), SyzygyOptions::default());
    let mut pos = pos.clone();
    let mut history: Vec<u64> = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..300 {
        if pos.is_checkmate() {
            return (End::Mate, moves);
        }
        if pos.legal_moves().is_empty() {
            return (End::Other("stalemate".into()), moves);
        }
        if pos.halfmove_clock() >= 100 {
            return (End::FiftyMoves, moves);
        }
        if history.iter().filter(|&&k| k == pos.key()).count() >= 2 {
            return (End::Repetition, moves);
        }
        let m = if pos.side_to_move() == winner {
            if tb.probe_wdl(&pos) == Some(Wdl::Draw) && pos.halfmove_clock() == 0 {
                return (End::Other(format!("drawn after {moves:?}")), moves);
            }
            e.search(&pos, &history, &Limits::nodes(nodes), &mut |_| {}).best.unwrap()
        } else {
            defend(tb, &pos)
        };
        moves.push(pos.to_uci(m));
        history.push(pos.key());
        pos = pos.play(m);
    }
    (End::Other("300 plies".into()), moves)
}

/// Won positions (White to move) of KQvK, KRvK and KPvK with the Syzygy DTZ of each,
/// and a halfmove clock that leaves no ply to spare: only DTZ-optimal play wins in time.
const TIGHT: [(&str, u32); 3] = [
    ("8/5k2/8/8/8/2Q5/8/K7 w - - 0 1", 17),
    ("3K4/8/5R2/8/3k4/8/8/8 w - - 0 1", 27),
    ("8/8/8/3k4/8/6P1/8/6K1 w - - 0 1", 15),
];

#[test]
fn dtz_at_the_root_converts_within_the_fifty_move_rule() {
    let Some(dir) = table_dir() else { return };
    let tb = tables(&dir);
    for (fen, dtz) in TIGHT {
        let root = Position::from_fen(fen).unwrap();
        assert_eq!(tb.probe_wdl(&root), Some(Wdl::Win), "{fen}");
        assert!((dtz as i32..=dtz as i32 + 1).contains(&tb.probe_dtz(&root).unwrap()), "{fen}");
        let pos = with_clock(fen, 100 - dtz);
        let (end, moves) = play_out(&tb, &pos, 20_000, true);
        assert_eq!(end, End::Mate, "{fen} with {} plies on the clock: {moves:?}", 100 - dtz);
    }
}

#[test]
fn without_tables_the_tight_positions_are_not_all_converted() {
    // The test above is not met by the search alone: without tables (and so without DTZ
    // at the root) at least one of the positions ends in a 50-move draw.
    let Some(dir) = table_dir() else { return };
    let tb = tables(&dir);
    let ends: Vec<End> =
        TIGHT.iter().map(|&(fen, dtz)| play_out(&tb, &with_clock(fen, 100 - dtz), 20_000, false).0).collect();
    assert!(ends.iter().any(|e| *e != End::Mate), "{ends:?}");
}

#[test]
fn the_chosen_move_keeps_the_win() {
    let Some(dir) = table_dir() else { return };
    let tb = tables(&dir);
    for (fen, _) in TIGHT {
        for clock in [0, 40] {
            let pos = with_clock(fen, clock);
            let mut e = engine(Some(Arc::clone(&tb)), SyzygyOptions::default());
            let mut root_hits = 0;
            let r = e.search(&pos, &[], &Limits::depth(6), &mut |i| root_hits = root_hits.max(i.tbhits));
            let child = pos.play(r.best.unwrap());
            assert!(child.is_checkmate() || tb.probe_wdl(&child) == Some(Wdl::Loss), "{fen}: {:?}", r.best);
            // Still won in time: the winner's distance to zeroing fits in the clock.
            if !child.is_checkmate() && child.halfmove_clock() > 0 {
                let dtz = -tb.probe_dtz(&child).unwrap();
                assert!(dtz + 1 + clock as i32 <= 100, "{fen}: {} leaves {dtz}", pos.to_uci(r.best.unwrap()));
            }
            assert!(matches!(r.score, Score::Cp(c) if c > 10_000) || matches!(r.score, Score::Mate(m) if m > 0));
            // Every root move was probed, and counted.
            assert!(root_hits >= pos.legal_moves().len() as u64, "{root_hits}");
        }
    }
}

#[test]
fn fifty_move_rule_option_decides_cursed_wins() {
    let Some(dir) = table_dir() else { return };
    let tb = tables(&dir);
    // KBNvK, 60 plies from mate; with 60 on the clock the mate comes too late.
    let fen = "2K5/8/8/8/8/2k3N1/2B5/8 w - - 0 1";
    assert_eq!(tb.probe_dtz(&Position::from_fen(fen).unwrap()), Some(60));
    let pos = with_clock(fen, 60);
    let score = |fifty_move_rule: bool| {
        let mut e = engine(Some(Arc::clone(&tb)), SyzygyOptions { fifty_move_rule, ..SyzygyOptions::default() });
        e.search(&pos, &[], &Limits::depth(8), &mut |_| {}).score
    };
    let with_rule = score(true);
    assert!(matches!(with_rule, Score::Cp(1..=49)), "{with_rule:?}");
    let without_rule = score(false);
    assert!(matches!(without_rule, Score::Cp(c) if c > 10_000), "{without_rule:?}");
    // With the clock at zero the same position is a plain win.
    let mut e = engine(Some(Arc::clone(&tb)), SyzygyOptions::default());
    let fresh = e.search(&Position::from_fen(fen).unwrap(), &[], &Limits::depth(8), &mut |_| {}).score;
    assert!(matches!(fresh, Score::Cp(c) if c > 10_000), "{fresh:?}");
}

#[test]
fn options_are_listed_and_parsed() {
    let (uci, rx) = session();
    let mut uci = uci.with_tablebase_loader(loader());
    uci.handle("uci");
    let lines = until(&rx, "uciok");
    for want in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} missing from {lines:#?}");
    }
    for bad in [
        "setoption name SyzygyProbeDepth value 0",
        "setoption name SyzygyProbeLimit value 8",
        "setoption name Syzygy50MoveRule value maybe",
    ] {
        uci.handle(bad);
        uci.handle("isready");
        let out = until(&rx, "readyok");
        assert!(out[0].starts_with("info string setoption") && out[0].contains("ignored"), "{bad}: {out:?}");
    }
    for good in [
        "setoption name SyzygyProbeDepth value 5",
        "setoption name SyzygyProbeLimit value 0",
        "setoption name Syzygy50MoveRule value false",
    ] {
        uci.handle(good);
        uci.handle("isready");
        assert_eq!(until(&rx, "readyok"), ["readyok"], "{good}");
    }
}

/// The largest `tbhits` of a search of `fen` after the given option lines.
fn tbhits(options: &[String], fen: &str) -> u64 {
    let (uci, rx) = session();
    let mut uci = uci.with_tablebase_loader(loader());
    for o in options {
        uci.handle(o);
    }
    uci.handle(&format!("position fen {fen}"));
    uci.handle("go depth 8");
    let lines = until_bestmove(&rx);
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty() && infos.iter().all(|l| field(l, "tbhits").is_some()), "{lines:#?}");
    infos.iter().map(|l| field(l, "tbhits").unwrap().parse::<u64>().unwrap()).max().unwrap()
}

#[test]
fn tbhits_count_probes_in_the_search_and_at_the_root() {
    let Some(dir) = table_dir() else { return };
    let path = format!("setoption name SyzygyPath value {}", dir.display());
    // Five men: the search probes the four-man positions that captures lead to.
    let five = "8/8/4k3/3r4/8/3Q4/4K3/6N1 w - - 0 1";
    assert_eq!(tbhits(&[], five), 0);
    let searched = tbhits(std::slice::from_ref(&path), five);
    assert!(searched > 0);
    // A limit of three men leaves out the four-man positions: fewer probes.
    let limited = tbhits(&[path.clone(), "setoption name SyzygyProbeLimit value 3".into()], five);
    assert!(limited < searched, "{limited} vs {searched}");
    assert_eq!(tbhits(&[path.clone(), "setoption name SyzygyProbeLimit value 0".into()], five), 0);
    // Four men at the root: its moves are probed (and counted) before the search.
    let four = "8/8/8/3k4/8/6P1/8/6K1 w - - 0 1";
    assert_eq!(tbhits(&[], four), 0);
    let root = Position::from_fen(four).unwrap().legal_moves().len() as u64;
    assert!(tbhits(std::slice::from_ref(&path), four) >= root);
}
