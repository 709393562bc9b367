//! Distance to conversion (DTC): KRKN by the metric of Bratko 1978, hand-checked
//! positions, DTC against DTM over whole tables, the metric in file headers, and
//! DTC tables kept away from readers of DTM tables.

use bastion_core::tablebase::TablebaseProbe;
use bastion_core::{Color, Position};
use bastion_tablebase::driver::{build, build_metric, Loader};
use bastion_tablebase::format::TableFile;
use bastion_tablebase::gen::generate_all_into;
use bastion_tablebase::{verify, Dtm, Material, Metric, TableSet, Tablebases, TbError, Wdl};
use indicatif::ProgressBar;
use std::path::PathBuf;
use std::sync::OnceLock;

fn krkn() -> Material {
    Material::parse("KRKN").unwrap()
}

/// KRKN and its sub-endings in both metrics, generated once for all tests.
fn krkn_sets() -> &'static (TableSet, TableSet) {
    static SETS: OnceLock<(TableSet, TableSet)> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut dtm = TableSet::new();
        let mut dtc = TableSet::with_metric(Metric::Dtc);
        generate_all_into(&[krkn()], &mut dtm);
        generate_all_into(&[krkn()], &mut dtc);
        (dtm, dtc)
    })
}

fn probe(set: &TableSet, fen: &str) -> Dtm {
    set.probe(&Position::from_fen(fen).unwrap()).unwrap().unwrap()
}

#[test]
fn hand_checked_krkn_positions() {
    let (dtm, dtc) = krkn_sets();
    // The rook takes the undefended knight at once: conversion in one ply.
    let takes = "8/8/8/1n2k3/8/8/8/1R5K w - - 0 1";
    assert_eq!(probe(dtc, takes), Dtm::Win(1));
    assert!(matches!(probe(dtm, takes), Dtm::Win(n) if n > 1));
    // Mate in one is a conversion in one.
    let mate = "k7/8/1K6/8/8/7n/8/2R5 w - - 0 1";
    assert_eq!(probe(dtc, mate), Dtm::Win(1));
    assert_eq!(probe(dtm, mate), Dtm::Win(1));
    // Bratko 1978's sample line, after 26...Ka2: 27.Re7 attacks the knight, and every
    // reply loses it or the king's cover (27...Ng7 28.Rxg7; 27...Nc7 28.Rxc7;
    // 27...Nd6/Nf6 28.Kxd6/Kxf6; a king move 28.Rxe8): three plies.
    let sample = "4n3/7R/8/4K3/8/8/k7/8 w - - 0 1";
    assert_eq!(probe(dtc, sample), Dtm::Win(3));
    // Black to move after 27.Re7: the knight is lost in two plies whatever it does.
    assert_eq!(probe(dtc, "4n3/4R3/8/4K3/8/8/k7/8 b - - 0 1"), Dtm::Loss(2));
    // The knight takes the rook: a draw in both metrics.
    let saved = "8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1";
    assert_eq!(probe(dtc, saved), Dtm::Draw);
    assert_eq!(probe(dtm, saved), Dtm::Draw);
}

#[test]
fn krkn_dtc_never_exceeds_dtm_and_keeps_every_result() {
    let (dtm, dtc) = krkn_sets();
    let a = dtm.get(&krkn()).unwrap();
    let b = dtc.get(&krkn()).unwrap();
    assert_eq!((a.metric(), b.metric()), (Metric::Dtm, Metric::Dtc));
    let mut won = 0u64;
    let mut shorter = 0u64;
    for side in Color::ALL {
        for idx in 0..a.indexer().size() {
            let (x, y) = (Dtm::from_code(a.code(side, idx).unwrap()), Dtm::from_code(b.code(side, idx).unwrap()));
            match (x, y) {
                (None, None) | (Some(Dtm::Draw), Some(Dtm::Draw)) => {}
                (Some(Dtm::Win(m)), Some(Dtm::Win(c))) => {
                    won += 1;
                    shorter += u64::from(c < m);
                    assert!(c <= m, "index {idx}: DTC {c} > DTM {m}");
                }
                (Some(Dtm::Loss(m)), Some(Dtm::Loss(c))) => assert!(c <= m, "index {idx}: DTC {c} > DTM {m}"),
                other => panic!("index {idx} ({side:?}): DTM and DTC disagree on the result: {other:?}"),
            }
        }
    }
    assert!(won > 600_000, "{won}");
    assert!(shorter > won / 2, "most KRKN wins take the knight before mating: {shorter} of {won}");
}

#[test]
fn krkn_dtc_passes_the_independent_check() {
    // Every position's stored DTC equals the minimax of its successors, captures
    // valued as conversions from the sub-tables' results.
    let (_, dtc) = krkn_sets();
    let t = dtc.get(&krkn()).unwrap();
    let loaded = bastion_tablebase::TableData {
        indexer: t.indexer().clone(),
        metric: Metric::Dtc,
        values: [Color::White, Color::Black].map(|side| {
            bastion_tablebase::Codes::from_wide((0..t.indexer().size()).map(|i| t.code(side, i).unwrap()).collect())
        }),
    };
    let r = verify::verify_every(&loaded, dtc, &ProgressBar::hidden(), 3);
    assert!(r.ok(), "{r:?}");
}

#[test]
fn endings_without_conversions_have_dtc_equal_to_dtm() {
    // In KQK and KRK the winner captures nothing, so DTC is DTM.
    let mut dtm = TableSet::new();
    let mut dtc = TableSet::with_metric(Metric::Dtc);
    let ms = [Material::parse("KQK").unwrap(), Material::parse("KRK").unwrap()];
    generate_all_into(&ms, &mut dtm);
    generate_all_into(&ms, &mut dtc);
    for m in &ms {
        let (a, b) = (dtm.get(m).unwrap(), dtc.get(m).unwrap());
        for side in Color::ALL {
            for idx in 0..a.indexer().size() {
                assert_eq!(a.code(side, idx).unwrap(), b.code(side, idx).unwrap(), "{} {idx}", m.name());
            }
        }
    }
}

#[test]
fn the_metric_travels_in_the_header_and_dtc_files_are_never_read_as_dtm() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let recs = build_metric(&[Material::parse("KRK").unwrap()], dir, Metric::Dtc, false, |_| {}).unwrap();
    assert!(recs.iter().all(|r| r.metric == Metric::Dtc));
    let dtc_path = dir.join("KRK.dtc.btb");
    assert!(dtc_path.exists() && !dir.join("KRK.btb").exists());
    let f = TableFile::open_any(&dtc_path).unwrap();
    assert_eq!(f.header().metric, Metric::Dtc);
    assert_eq!(TableFile::open_metric(&dtc_path, Metric::Dtc).unwrap().load().unwrap().metric, Metric::Dtc);
    assert!(matches!(
        TableFile::open(&dtc_path),
        Err(TbError::WrongMetric { found: Metric::Dtc, expected: Metric::Dtm, .. })
    ));

    // Readers of DTM tables do not list DTC files...
    let dtm_tbs = Tablebases::open(&[dir]).unwrap();
    assert!(dtm_tbs.endings().is_empty());
    // ...and one renamed to a DTM table's name is refused when opened, not probed.
    std::fs::copy(&dtc_path, dir.join("KRK.btb")).unwrap();
    let renamed = Tablebases::open(&[dir]).unwrap();
    assert_eq!(renamed.endings().len(), 1);
    let krk = Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1").unwrap();
    assert!(matches!(renamed.try_probe_dtm(&krk), Err(TbError::WrongMetric { .. })));
    assert_eq!(TablebaseProbe::probe_dtm(&renamed, &krk), None);
    assert!(Loader::new(dir).load(&Material::parse("KRK").unwrap()).is_err());
    std::fs::remove_file(dir.join("KRK.btb")).unwrap();

    // The DTC tables answer as DTC tables, with the result but no distance to
    // mate for the engine.
    let dtc_tbs = Tablebases::open_metric(&[dir], Metric::Dtc).unwrap();
    assert_eq!(dtc_tbs.metric(), Metric::Dtc);
    assert_eq!(dtc_tbs.probe_dtm(&krk), Some(Dtm::Win(27)));
    assert_eq!(TablebaseProbe::probe_wdl(&dtc_tbs, &krk), Some(Wdl::Win));
    assert_eq!(TablebaseProbe::probe_dtm(&dtc_tbs, &krk), None);
    let root = TablebaseProbe::probe_root(&dtc_tbs, &krk).unwrap();
    assert!(root.iter().all(|(_, _, d)| d.is_none()));

    // A DTM build beside it leaves the DTC files alone, and the reverse.
    build(&[Material::parse("KRK").unwrap()], dir, false, |_| {}).unwrap();
    assert_eq!(TableFile::open(&dir.join("KRK.btb")).unwrap().header().metric, Metric::Dtm);
    let again = build_metric(&[Material::parse("KRK").unwrap()], dir, Metric::Dtc, false, |_| {}).unwrap();
    assert!(again.iter().all(|r| r.skipped));
}

#[test]
fn a_dtc_probe_line_ends_with_the_conversion() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    build_metric(&[krkn()], dir, Metric::Dtc, false, |_| {}).unwrap();
    let tbs = Tablebases::open_metric(&[dir], Metric::Dtc).unwrap();
    let pos = Position::from_fen("4n3/7R/8/4K3/8/8/k7/8 w - - 0 1").unwrap();
    let line = tbs.try_line(&pos, 100).unwrap();
    assert_eq!(line.len(), 3, "{line:?}");
    let mut p = pos.clone();
    for m in &line[..2] {
        p = p.play(*m);
    }
    assert!(p.piece_at(line[2].to()).is_some(), "the last move of the line takes the knight");
    let best = tbs.best_moves(&pos).unwrap();
    assert!(best.iter().any(|m| pos.to_uci(m.mv) == "h7e7"), "27.Re7 is optimal");
}

/// The shared Syzygy tables (`SYZYGY_DIR` overrides), if present.
fn syzygy_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SYZYGY_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy"));
    dir.join("KRvKN.rtbz").exists().then_some(dir)
}

#[test]
fn krkn_dtc_equals_syzygy_dtz() {
    // In KRKN every zeroing move is a capture, and the defender's captures draw,
    // so the distance to zeroing of a decided position is the distance to conversion.
    let Some(dir) = syzygy_dir() else {
        eprintln!("skipped: no Syzygy KRvKN tables (set SYZYGY_DIR)");
        return;
    };
    let (prober, _) = bastion_tablebase::SyzygyProber::open(&dir).unwrap();
    let (_, dtc) = krkn_sets();
    let t = dtc.get(&krkn()).unwrap();
    let mut checked = 0;
    let mut precise = 0u64;
    let mut bad = Vec::new();
    for side in Color::ALL {
        for idx in (0..t.indexer().size()).step_by(97) {
            let Some(v) = Dtm::from_code(t.code(side, idx).unwrap()) else { continue };
            let pos = t.indexer().position(idx, side).unwrap();
            let (dtz, rounded) = prober.probe_dtz(&pos).unwrap();
            checked += 1;
            // Where Syzygy stores a distance rounded, it may be one ply off.
            let slack = if rounded { 1 } else { 0 };
            let ok = match v {
                Dtm::Win(n) => dtz > 0 && (dtz - i32::from(n)).abs() <= slack,
                Dtm::Loss(n) => dtz <= 0 && (dtz + i32::from(n)).abs() <= slack,
                Dtm::Draw => dtz == 0,
            };
            precise += u64::from(!rounded);
            if !ok {
                bad.push((pos.fen(), v, dtz, rounded));
            }
        }
    }
    eprintln!(
        "{checked} positions ({precise} stored exactly), {} differ: {:?}",
        bad.len(),
        bad.iter().take(5).collect::<Vec<_>>()
    );
    assert!(checked > 20_000 && precise > 1_000, "{checked} {precise}");
    assert!(bad.is_empty());
}

/// Every 3- and 4-man ending in both metrics (minutes of CPU):
/// `cargo test -p bastion-tablebase --test dtc -- --ignored`.
#[test]
#[ignore]
fn every_four_man_dtc_is_at_most_its_dtm_with_the_same_result() {
    let targets: Vec<Material> = (3..=4).flat_map(Material::all_with).collect();
    let mut dtm = TableSet::new();
    let mut dtc = TableSet::with_metric(Metric::Dtc);
    generate_all_into(&targets, &mut dtm);
    generate_all_into(&targets, &mut dtc);
    let (mut forced, mut shorter) = (0u64, 0u64);
    for m in &targets {
        let (a, b) = (dtm.get(m).unwrap(), dtc.get(m).unwrap());
        for side in Color::ALL {
            for idx in 0..a.indexer().size() {
                let (x, y) = (Dtm::from_code(a.code(side, idx).unwrap()), Dtm::from_code(b.code(side, idx).unwrap()));
                let ok = match (x, y) {
                    (None, None) | (Some(Dtm::Draw), Some(Dtm::Draw)) => true,
                    (Some(Dtm::Win(p)), Some(Dtm::Win(q))) => {
                        shorter += u64::from(q < p);
                        q <= p
                    }
                    (Some(Dtm::Loss(p)), Some(Dtm::Loss(q))) => {
                        forced += u64::from(q == 0 && p > 0);
                        shorter += u64::from(q < p);
                        q <= p
                    }
                    _ => false,
                };
                assert!(ok, "{} {side:?} index {idx}: DTM {x:?}, DTC {y:?}", m.name());
            }
        }
    }
    // Positions where the losing side can only capture into a lost ending
    // (KQRK: the king takes the rook), counted as converted at once.
    eprintln!("DTC shorter than DTM in {shorter} positions; {forced} forced conversions by the losing side");
    assert!(forced > 0 && shorter > 0);
}

/// Bratko 1978 gives a 15-move win starting 1.Kc6 in a KRKN position that Fine's
/// Basic Chess Endings (after Berger) calls a draw; the seed's copy has lost the
/// diagram. This counts the full-board positions that fit, White to move with
/// 1.Kc6 the only winning move: `cargo test -p bastion-tablebase --test dtc --
/// --ignored --nocapture fine`.
#[test]
#[ignore]
fn fine_positions_where_only_kc6_wins_in_fifteen() {
    use bastion_core::{Piece, Role, Square};
    let (dtm, dtc) = krkn_sets();
    let c6 = Square::from_index(2 + 5 * 8);
    let (mut by_dtc, mut by_dtm) = (Vec::new(), Vec::new());
    let near_c6 = |s: usize| s != c6.index() && (s % 8).abs_diff(2) <= 1 && (s / 8).abs_diff(5) <= 1;
    for wk in (0..64).filter(|&s| near_c6(s)) {
        for wr in 0..64 {
            for bk in 0..64 {
                for bn in 0..64 {
                    let sq = [wk, wr, bk, bn];
                    if (0..4).any(|i| (i + 1..4).any(|j| sq[i] == sq[j])) {
                        continue;
                    }
                    let men = [
                        (Square::from_index(wk), Piece::new(Color::White, Role::King)),
                        (Square::from_index(wr), Piece::new(Color::White, Role::Rook)),
                        (Square::from_index(bk), Piece::new(Color::Black, Role::King)),
                        (Square::from_index(bn), Piece::new(Color::Black, Role::Knight)),
                    ];
                    let Ok(pos) = Position::from_pieces(&men, Color::White) else { continue };
                    let (Ok(Some(Dtm::Win(c))), Ok(Some(Dtm::Win(m)))) = (dtc.probe(&pos), dtm.probe(&pos)) else {
                        continue;
                    };
                    let winning: Vec<_> = pos
                        .legal_moves()
                        .iter()
                        .copied()
                        .filter(|&mv| dtm.probe(&pos.play(mv)).unwrap().unwrap().wdl() == Wdl::Loss)
                        .collect();
                    if winning.len() != 1 || winning[0].to() != c6 || winning[0].from() != Square::from_index(wk) {
                        continue;
                    }
                    if c == 29 {
                        by_dtc.push(pos.fen());
                    }
                    if m == 29 {
                        by_dtm.push(pos.fen());
                    }
                }
            }
        }
    }
    eprintln!("conversion in 15 moves: {} positions, e.g. {:?}", by_dtc.len(), &by_dtc[..3]);
    eprintln!("mate in 15: {} positions, e.g. {:?}", by_dtm.len(), &by_dtm[..3]);
    assert_eq!((by_dtc.len(), by_dtm.len()), (250, 241));
}
