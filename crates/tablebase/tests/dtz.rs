//! Distance to zeroing (DTZ) from Bastion's own generator: hand-checked KPK
//! positions, DTZ tables built in two passes into a directory, kept away from
//! readers of DTM tables, and equal to Syzygy's DTZ on every position of KPK and
//! on a sample of KRKN (allowing for Syzygy's documented rounding); ignored, on a
//! sample of every 3- and 4-man table (every 997th index, `DTZ_SAMPLE_STEP` changes it).
//!
//! The Syzygy tables are expected in `../shared/data/syzygy` beside the repository
//! (`SYZYGY_DIR` overrides); without them the comparison says so and passes.

use bastion_core::tablebase::TablebaseProbe;
use bastion_core::{Color, Position};
use bastion_tablebase::driver::build_metric;
use bastion_tablebase::format::TableFile;
use bastion_tablebase::gen::generate_all_into;
use bastion_tablebase::syzygy::positions::accepted_by_shakmaty;
use bastion_tablebase::{verify, Dtm, Material, Metric, Probers, SyzygyProber, TableSet, Tablebases, TbError};
use indicatif::ProgressBar;
use std::path::PathBuf;

fn dtz_set(ending: &str) -> TableSet {
    let mut set = TableSet::with_metric(Metric::Dtz);
    generate_all_into(&[Material::parse(ending).unwrap()], &mut set);
    set
}

fn probe(set: &TableSet, fen: &str) -> Dtm {
    set.probe(&Position::from_fen(fen).unwrap()).unwrap().unwrap()
}

/// The shared Syzygy tables, or `None` (with a message) when they are not there.
fn syzygy() -> Option<SyzygyProber> {
    let dir = std::env::var_os("SYZYGY_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy"));
    if !dir.join("KPvK.rtbz").is_file() {
        eprintln!("skipped: no Syzygy tables in {} (set SYZYGY_DIR)", dir.display());
        return None;
    }
    Some(SyzygyProber::open(&dir).unwrap().0)
}

#[test]
fn hand_checked_kpk_positions() {
    let set = dtz_set("KPK");
    // The pawn runs: its first move zeroes at once.
    assert_eq!(probe(&set, "8/8/8/8/8/7k/P7/K7 w - - 0 1"), Dtm::Win(1));
    // Black to move can only wait: White's pawn move comes next ply.
    assert_eq!(probe(&set, "8/8/8/8/8/7k/P7/K7 b - - 0 1"), Dtm::Loss(2));
    // White takes nothing and pushes nothing in time: the opposition is lost, a draw.
    assert_eq!(probe(&set, "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1"), Dtm::Draw);
    // Stalemate.
    assert_eq!(probe(&set, "1k6/1P6/1K6/8/8/8/8/8 b - - 0 1"), Dtm::Draw);
    // Pawnless endings: DTZ equals DTC.
    let (krk_dtz, mut krk_dtc) = (dtz_set("KRK"), TableSet::with_metric(Metric::Dtc));
    generate_all_into(&[Material::parse("KRK").unwrap()], &mut krk_dtc);
    let (a, b) = (
        krk_dtz.get(&Material::parse("KRK").unwrap()).unwrap(),
        krk_dtc.get(&Material::parse("KRK").unwrap()).unwrap(),
    );
    for side in Color::ALL {
        for idx in 0..a.indexer().size() {
            assert_eq!(a.code(side, idx).unwrap(), b.code(side, idx).unwrap());
        }
    }
}

#[test]
fn kpk_dtz_keeps_every_result_of_dtm_and_verifies() {
    let dtz = dtz_set("KPK");
    let mut dtm = TableSet::new();
    generate_all_into(&[Material::parse("KPK").unwrap()], &mut dtm);
    let kpk = Material::parse("KPK").unwrap();
    let (a, b) = (dtm.get(&kpk).unwrap(), dtz.get(&kpk).unwrap());
    for side in Color::ALL {
        for idx in 0..a.indexer().size() {
            let (x, y) = (Dtm::from_code(a.code(side, idx).unwrap()), Dtm::from_code(b.code(side, idx).unwrap()));
            assert_eq!(x.map(Dtm::wdl), y.map(Dtm::wdl), "index {idx}, {side:?} to move");
        }
    }
    // Every stored value is the minimax of its successors in the DTZ metric.
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path();
    build_metric(std::slice::from_ref(&kpk), files, Metric::Dtz, false, |_| {}).unwrap();
    let t = TableFile::open_metric(&files.join("KPK.dtz.btb"), Metric::Dtz).unwrap().load().unwrap();
    let mut set = TableSet::with_metric(Metric::Dtz);
    for c in kpk.children() {
        set.insert(std::sync::Arc::new(
            TableFile::open_metric(&files.join(Metric::Dtz.file_name(&c)), Metric::Dtz).unwrap().load().unwrap(),
        ));
    }
    let t = std::sync::Arc::new(t);
    set.insert(t.clone());
    let r = verify::verify(&t, &set, &ProgressBar::hidden());
    assert!(r.ok(), "{r:?}");
}

#[test]
fn dtz_files_are_built_in_two_passes_and_refused_by_dtm_readers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let recs = build_metric(&[Material::parse("KPK").unwrap()], dir, Metric::Dtz, false, |_| {}).unwrap();
    // The DTM pass (KQK, KRK, KBK, KNK, KPK) comes first, then the DTZ pass.
    let metrics: Vec<Metric> = recs.iter().map(|r| r.metric).collect();
    assert_eq!(metrics, [[Metric::Dtm; 5], [Metric::Dtz; 5]].concat());
    let path = dir.join("KPK.dtz.btb");
    assert_eq!(TableFile::open_any(&path).unwrap().header().metric, Metric::Dtz);
    // A DTZ file under a DTM table's name is refused, not read as distances to mate.
    let renamed = dir.join("renamed");
    std::fs::create_dir_all(&renamed).unwrap();
    std::fs::copy(&path, renamed.join("KPK.btb")).unwrap();
    assert!(matches!(TableFile::open(&renamed.join("KPK.btb")), Err(TbError::WrongMetric { found: Metric::Dtz, .. })));
    std::fs::remove_dir_all(&renamed).unwrap();
    // A second build reads every file and generates nothing.
    let again = build_metric(&[Material::parse("KPK").unwrap()], dir, Metric::Dtz, false, |_| {}).unwrap();
    assert!(again.iter().all(|r| r.skipped));
}

#[test]
fn probers_answer_dtz_from_bastion_dtz_files_only() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let dtm_only = dir.join("dtm");
    std::fs::create_dir_all(&dtm_only).unwrap();
    build_metric(&[Material::parse("KPK").unwrap()], dir, Metric::Dtz, false, |_| {}).unwrap();
    for f in std::fs::read_dir(dir).unwrap() {
        let p = f.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".btb") && !name.ends_with(".dtz.btb") {
            std::fs::copy(&p, dtm_only.join(&name)).unwrap();
        }
    }
    let pos = Position::from_fen("8/8/8/8/8/7k/P7/K7 b - - 0 1").unwrap();
    let with_dtz = Probers::open(&[dir], None).unwrap();
    assert!(with_dtz.dtz().is_some());
    assert_eq!(with_dtz.probe_dtz(&pos), Some(-2));
    assert_eq!(with_dtz.probe_dtm(&pos).map(i32::signum), Some(-1));
    // Without DTZ files nothing answers DTZ, as before.
    let without = Probers::open(&[&dtm_only], None).unwrap();
    assert!(without.dtz().is_none());
    assert_eq!(without.probe_dtz(&pos), None);
    // A directory of DTZ tables alone is usable.
    let tbs = Tablebases::open_metric(&[dir], Metric::Dtz).unwrap();
    assert_eq!(TablebaseProbe::probe_dtz(&tbs, &pos), Some(-2));
    assert_eq!(TablebaseProbe::probe_dtm(&tbs, &pos), None);
}

/// How a Bastion DTZ value compares with Syzygy's.
#[derive(Default, Debug)]
struct Agreement {
    compared: u64,
    exact: u64,
    /// Syzygy stores the value rounded and it is ours or one ply less.
    rounded: u64,
    /// Cursed wins and blessed losses (compared without the 100 plies Syzygy adds).
    cursed: u64,
    mismatches: Vec<String>,
}

/// Compares every `step`-th index of `ending`'s DTZ table with Syzygy's DTZ.
fn compare(tb: &SyzygyProber, set: &TableSet, ending: &str, step: u64) -> Agreement {
    let t = set.get(&Material::parse(ending).unwrap()).unwrap();
    let mut a = Agreement::default();
    for side in Color::ALL {
        for idx in (0..t.indexer().size()).step_by(step as usize) {
            let Some(value) = Dtm::from_code(t.code(side, idx).unwrap()) else { continue };
            let Some(pos) = t.indexer().position(idx, side) else { continue };
            if !accepted_by_shakmaty(&pos) {
                continue;
            }
            let ours = value.signed_dtz();
            let (mut theirs, rounded) = tb.probe_dtz(&pos).unwrap();
            a.compared += 1;
            if theirs.abs() > 100 {
                // A cursed win or blessed loss: the 50-move rule's 100 plies added.
                a.cursed += 1;
                theirs -= 100 * theirs.signum();
            }
            if ours == theirs {
                a.exact += 1;
            } else if rounded && ours.abs() == theirs.abs() + 1 && ours.signum() == theirs.signum() {
                a.rounded += 1;
            } else if a.mismatches.len() < 10 {
                a.mismatches.push(format!("{}: ours {ours}, Syzygy {theirs} (rounded: {rounded})", pos.fen()));
            } else {
                a.mismatches.push(String::new());
            }
        }
    }
    eprintln!(
        "{ending}: {} positions compared, {} exact, {} within Syzygy's rounding, {} cursed, {} mismatches",
        a.compared,
        a.exact,
        a.rounded,
        a.cursed,
        a.mismatches.len()
    );
    a
}

/// Every `default`-th index is compared, or every `DTZ_SAMPLE_STEP`-th when that is set.
fn sample_step(default: u64) -> u64 {
    std::env::var("DTZ_SAMPLE_STEP").ok().and_then(|v| v.parse().ok()).filter(|&s| s > 0).unwrap_or(default)
}

#[test]
fn kpk_dtz_equals_syzygy_on_a_sample() {
    let Some(tb) = syzygy() else { return };
    // Every 5th index in the normal run; `DTZ_SAMPLE_STEP=1` compares every position.
    let step = sample_step(5);
    let a = compare(&tb, &dtz_set("KPK"), "KPK", step);
    assert!(a.compared > 150_000 / step, "{a:?}");
    assert!(a.mismatches.is_empty(), "{:#?}", &a.mismatches[..a.mismatches.len().min(10)]);
}

#[test]
fn krkn_dtz_equals_syzygy_on_a_sample() {
    let Some(tb) = syzygy() else { return };
    let step = sample_step(97);
    let a = compare(&tb, &dtz_set("KRKN"), "KRKN", step);
    assert!(a.compared > 2_900_000 / step, "{a:?}");
    assert!(a.mismatches.is_empty(), "{:#?}", &a.mismatches[..a.mismatches.len().min(10)]);
}

#[test]
#[ignore = "generates every 3- and 4-man table twice (DTM, DTZ): minutes"]
fn every_three_and_four_man_dtz_table_equals_syzygy_on_a_sample() {
    let Some(tb) = syzygy() else { return };
    let step = sample_step(997);
    let targets: Vec<Material> = [3, 4].into_iter().flat_map(Material::all_with).collect();
    let mut set = TableSet::with_metric(Metric::Dtz);
    generate_all_into(&targets, &mut set);
    let mut total = Agreement::default();
    for m in &targets {
        let a = compare(&tb, &set, &m.name(), step);
        total.compared += a.compared;
        total.exact += a.exact;
        total.rounded += a.rounded;
        total.cursed += a.cursed;
        total.mismatches.extend(a.mismatches.into_iter().filter(|s| !s.is_empty()));
    }
    eprintln!(
        "all: {} compared (every {step}th index), {} exact, {} within rounding, {} cursed",
        total.compared, total.exact, total.rounded, total.cursed
    );
    assert!(total.mismatches.is_empty(), "{:#?}", total.mismatches);
}
