//! Files, the probing API, resumable building, corruption detection,
//! bitbases and verification on small endings.

use bastion_core::{Color, Position};
use bastion_tablebase::driver::{build, with_threads};
use bastion_tablebase::format::TableFile;
use bastion_tablebase::gen::{generate, generate_all_into};
use bastion_tablebase::table::ValueSource;
use bastion_tablebase::{verify, Bitbase, Bitbases, Codes, Dtm, Material, TableSet, Tablebases, TbError, Wdl};
use indicatif::ProgressBar;

fn mats(names: &[&str]) -> Vec<Material> {
    names.iter().map(|n| Material::parse(n).unwrap()).collect()
}

#[test]
fn build_resume_probe_and_detect_corruption() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let recs = build(&mats(&["KRK", "KPK"]), dir, false, |_| {}).unwrap();
    let names: Vec<&str> = recs.iter().map(|r| r.ending.as_str()).collect();
    assert_eq!(names, ["KRK", "KQK", "KBK", "KNK", "KPK"]);
    assert!(recs.iter().all(|r| !r.skipped));
    let before: Vec<Vec<u8>> =
        recs.iter().map(|r| std::fs::read(dir.join(format!("{}.btb", r.ending))).unwrap()).collect();

    // An interrupted run left a temporary file and lost a table: the rerun
    // skips finished tables and rebuilds the rest byte for byte.
    std::fs::remove_file(dir.join("KPK.btb")).unwrap();
    std::fs::write(dir.join("KPK.btb.tmp"), b"partial").unwrap();
    let again = build(&mats(&["KRK", "KPK"]), dir, false, |_| {}).unwrap();
    assert_eq!(again.iter().filter(|r| r.skipped).count(), 4);
    for (r, b) in recs.iter().zip(&before) {
        assert_eq!(&std::fs::read(dir.join(format!("{}.btb", r.ending))).unwrap(), b, "{}", r.ending);
    }

    // The files agree with an in-memory generation, index by index.
    let mut mem = TableSet::new();
    generate_all_into(&mats(&["KPK"]), &mut mem);
    let f = TableFile::open(&dir.join("KPK.btb")).unwrap();
    let t = mem.get(&Material::parse("KPK").unwrap()).unwrap();
    for side in Color::ALL {
        for idx in (0..t.indexer().size()).step_by(7) {
            assert_eq!(f.code(side, idx).unwrap(), t.code(side, idx).unwrap());
        }
    }
    // Loading the whole file keeps one byte per value and the same codes.
    let loaded = f.load().unwrap();
    for side in Color::ALL {
        assert!(matches!(loaded.values[side.index()], Codes::Narrow(_)));
        for idx in 0..t.indexer().size() {
            assert_eq!(loaded.code(side, idx).unwrap(), t.code(side, idx).unwrap());
        }
    }

    // Probing API: value, moves, and a line that really mates.
    let tbs = Tablebases::open(&[dir]).unwrap();
    assert_eq!(tbs.max_men(), 3);
    let pos = Position::from_fen("8/8/8/8/3k4/8/8/R3K3 w - - 0 1").unwrap();
    let v = tbs.probe_dtm(&pos).unwrap();
    let Dtm::Win(plies) = v else { panic!("KRK is won: {v:?}") };
    let line = tbs.try_line(&pos, 100).unwrap();
    assert_eq!(line.len(), plies as usize);
    let mut p = pos.clone();
    for m in &line {
        p = p.play(*m);
    }
    assert!(p.in_check() && p.legal_moves().is_empty(), "line ends in mate");
    let best = tbs.best_moves(&pos).unwrap();
    assert!(best.iter().all(|m| m.value == v));
    assert_eq!(tbs.probe_wdl(&pos.mirrored()), Some(Wdl::Win));
    // Missing ending.
    let krkn = Position::from_fen("8/8/8/8/3k4/8/2n5/R3K3 w - - 0 1").unwrap();
    assert_eq!(tbs.probe_dtm(&krkn), None);

    // A flipped byte in the payload and a truncated file are reported.
    let path = dir.join("KRK.btb");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 10] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let tbs = Tablebases::open(&[dir]).unwrap();
    assert!(matches!(tbs.try_probe_dtm(&pos), Err(TbError::Corrupt { .. })));
    assert_eq!(tbs.probe_dtm(&pos), None);
    std::fs::write(&path, &before[0][..before[0].len() / 2]).unwrap();
    assert!(matches!(TableFile::open(&path), Err(TbError::Corrupt { .. })));
    // ... and the next build regenerates it.
    let again = build(&mats(&["KRK"]), dir, false, |_| {}).unwrap();
    assert!(!again[0].skipped);
    assert_eq!(std::fs::read(&path).unwrap(), before[0]);
}

#[test]
fn bitbases_match_dtm_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut set = TableSet::new();
    generate_all_into(&mats(&["KPK", "KRK"]), &mut set);
    let t = TableFile::open(&{
        build(&mats(&["KPK"]), dir, false, |_| {}).unwrap();
        dir.join("KPK.btb")
    })
    .unwrap()
    .load()
    .unwrap();
    let b = Bitbase::from_table(&t);
    let path = b.write(dir).unwrap();
    let b2 = Bitbase::read(&path).unwrap();
    for side in Color::ALL {
        for idx in 0..t.indexer.size() {
            let want = t.dtm(side, idx).map_or(Wdl::Draw, Dtm::wdl);
            assert_eq!(b2.wdl(side, idx), want);
        }
    }
    let mut bbs = Bitbases::new();
    bbs.insert(b2);
    let pos = Position::from_fen("8/8/8/8/8/4K3/4P3/4k3 w - - 0 1").unwrap();
    assert_eq!(bbs.probe_wdl(&pos), Some(Wdl::Win));
    assert_eq!(bbs.probe_wdl(&pos.mirrored()), Some(Wdl::Win));
    // A damaged bitbase is refused.
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 1] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(Bitbase::read(&path).is_err());
}

#[test]
fn generation_is_independent_of_thread_count() {
    let mut set = TableSet::new();
    generate_all_into(&mats(&["KQK", "KRK"]), &mut set);
    let m = Material::parse("KQKR").unwrap();
    let one = with_threads(Some(1), || generate(&m, &set, &ProgressBar::hidden()).0).unwrap();
    let two = with_threads(Some(2), || generate(&m, &set, &ProgressBar::hidden()).0).unwrap();
    assert!(one.values == two.values);
    // KQKR: the longest win is mate in 35 (69 plies).
    let max_win = (0..one.indexer.size())
        .filter_map(|i| match one.dtm(Color::White, i) {
            Some(Dtm::Win(p)) => Some(p),
            _ => None,
        })
        .max();
    assert_eq!(max_win, Some(69));
}

#[test]
fn kbnk_and_krk_verify() {
    let mut set = TableSet::new();
    generate_all_into(&mats(&["KBNK", "KRK", "KPK"]), &mut set);
    for name in ["KBNK", "KRK", "KPK"] {
        let m = Material::parse(name).unwrap();
        let (t, _) = generate(&m, &set, &ProgressBar::hidden());
        let r = verify::verify(&t, &set, &ProgressBar::hidden());
        assert!(r.ok(), "{name}: {r:?}");
        if name == "KBNK" {
            // Mate in 33 with the winning side to move.
            let max_win = (0..t.indexer.size())
                .filter_map(|i| match t.dtm(Color::White, i) {
                    Some(Dtm::Win(p)) => Some(p),
                    _ => None,
                })
                .max();
            assert_eq!(max_win, Some(65));
        }
    }
    // The verifier is not vacuous: a table with one value changed fails.
    let m = Material::parse("KRK").unwrap();
    let (mut t, _) = generate(&m, &set, &ProgressBar::hidden());
    let i = t.values[0].iter().position(|c| c == Dtm::Win(3).code()).unwrap();
    t.values[0].set(i, Dtm::Win(5).code());
    let r = verify::verify(&t, &set, &ProgressBar::hidden());
    assert!(r.mismatches >= 1);
}
