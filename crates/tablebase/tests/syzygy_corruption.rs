//! Damaged Syzygy files: each kind of damage gives a clear error or, where the
//! format cannot tell (a changed byte inside a table's data: Syzygy files carry no
//! per-block checksum), at least no panic. Works on copies of the shared tables in
//! the target directory; without the tables the tests say so and pass.

use bastion_core::rng::Rng;
use bastion_core::tablebase::{TablebaseProbe, Wdl};
use bastion_core::Position;
use bastion_tablebase::syzygy::positions::{parse_syzygy_name, random_position};
use bastion_tablebase::syzygy::verify::{verify_directory, FileStatus};
use bastion_tablebase::syzygy::SyzygyError;
use bastion_tablebase::SyzygyProber;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// The tables KQvKR needs: its own and those its captures lead to.
const FILES: [&str; 6] = ["KQvKR.rtbw", "KQvKR.rtbz", "KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"];

fn shared_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SYZYGY_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy"));
    if FILES.iter().all(|f| dir.join(f).is_file()) {
        Some(dir)
    } else {
        eprintln!("skipped: no Syzygy tables in {} (set SYZYGY_DIR)", dir.display());
        None
    }
}

/// A fresh copy of the KQvKR tables in a directory of its own, writable.
fn copy_tables(name: &str) -> Option<PathBuf> {
    let src = shared_dir()?;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("syzygy-{name}"));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    for f in FILES {
        std::fs::write(dir.join(f), std::fs::read(src.join(f)).unwrap()).unwrap();
    }
    Some(dir)
}

fn kqkr_positions(n: usize) -> Vec<Position> {
    let m = parse_syzygy_name("KQvKR").unwrap();
    let mut rng = Rng::new(11);
    (0..n).map(|_| random_position(&m, &mut rng).unwrap()).collect()
}

/// Probes every position (WDL and DTZ) with a panic counted as a failure of the test.
fn probe_all(prober: &SyzygyProber, positions: &[Position]) -> Vec<Result<(Wdl, i32), String>> {
    positions
        .iter()
        .map(|p| {
            catch_unwind(AssertUnwindSafe(|| {
                let wdl = prober.probe_wdl(p).map_err(|e| e.to_string())?;
                let dtz = prober.probe_dtz(p).map_err(|e| e.to_string())?;
                Ok((wdl, dtz.0))
            }))
            .unwrap_or_else(|_| panic!("probing {} panicked", p.fen()))
        })
        .collect()
}

fn pristine(positions: &[Position]) -> Vec<(Wdl, i32)> {
    let (p, _) = SyzygyProber::open(&shared_dir().unwrap()).unwrap();
    probe_all(&p, positions).into_iter().map(|r| r.unwrap()).collect()
}

fn open_error(dir: &Path) -> String {
    match SyzygyProber::open(dir) {
        Err(e @ SyzygyError::BadFile { .. }) => e.to_string(),
        Err(e) => panic!("expected a bad-file error, got {e}"),
        Ok(_) => panic!("a damaged directory opened"),
    }
}

#[test]
fn truncated_file_is_refused_by_name() {
    let Some(dir) = copy_tables("truncated") else { return };
    let f = dir.join("KQvKR.rtbw");
    let len = std::fs::metadata(&f).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(&f).unwrap().set_len(len - 1000).unwrap();
    let msg = open_error(&dir);
    assert!(msg.contains("KQvKR.rtbw") && msg.contains("truncated"), "{msg}");
    let checks = verify_directory(&dir).unwrap();
    assert_eq!(checks.iter().find(|c| c.path == f).unwrap().status, FileStatus::BadSize);
}

#[test]
fn file_cut_on_a_block_boundary_gives_errors_not_wrong_values() {
    let Some(dir) = copy_tables("cut") else { return };
    let f = dir.join("KQvKR.rtbw");
    let len = std::fs::metadata(&f).unwrap().len();
    // Keep the size a table's (64 k + 16) so that only reading finds the cut.
    std::fs::OpenOptions::new().write(true).open(&f).unwrap().set_len(len / 2 / 64 * 64 + 16).unwrap();
    let (prober, _) = SyzygyProber::open(&dir).unwrap();
    let positions = kqkr_positions(300);
    let good = pristine(&positions);
    let got = probe_all(&prober, &positions);
    let errors = got.iter().filter(|r| r.is_err()).count();
    assert!(errors > 0, "no probe noticed the cut");
    for ((p, r), g) in positions.iter().zip(&got).zip(&good) {
        match r {
            Ok(v) => assert_eq!(v, g, "{}: a wrong value from a cut table", p.fen()),
            Err(e) => assert!(e.contains("KQvKR") && e.contains("corrupt or truncated"), "{e}"),
        }
    }
    let checks = verify_directory(&dir).unwrap();
    assert_eq!(checks.iter().find(|c| c.path == f).unwrap().status, FileStatus::ContentsDamaged);
}

#[test]
fn damaged_header_gives_a_clear_error() {
    let Some(dir) = copy_tables("header") else { return };
    let f = dir.join("KQvKR.rtbw");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[0] ^= 0xff;
    bytes[1] ^= 0x55;
    std::fs::write(&f, &bytes).unwrap();
    let (prober, _) = SyzygyProber::open(&dir).unwrap();
    let positions = kqkr_positions(100);
    let good = pristine(&positions);
    let got = probe_all(&prober, &positions);
    // A winning capture settles a position without reading its own table, so a
    // few positions may still be answered, and then rightly.
    assert!(got.iter().filter(|r| r.is_err()).count() > 50, "too few probes noticed the header");
    for ((p, r), g) in positions.iter().zip(&got).zip(&good) {
        match r {
            Ok(v) => assert_eq!(v, g, "{}: a wrong value from a table with a bad header", p.fen()),
            Err(e) => assert!(e.contains("KQvKR") && e.contains("magic"), "{e}"),
        }
    }
    // Behind the engine's prober trait the damage means "not covered", reported once.
    assert_eq!(prober.damage(), None);
    let misses = positions.iter().filter(|p| TablebaseProbe::probe_wdl(&prober, p).is_none()).count();
    assert!(misses > 50);
    assert!(prober.damage().is_some_and(|d| d.contains("KQvKR") && d.contains("magic")), "{:?}", prober.damage());
    let checks = verify_directory(&dir).unwrap();
    assert_eq!(checks.iter().find(|c| c.path == f).unwrap().status, FileStatus::ContentsDamaged);
}

#[test]
fn empty_file_and_directory_named_like_a_table_are_refused() {
    let Some(dir) = copy_tables("empty") else { return };
    std::fs::write(dir.join("KQvKR.rtbz"), b"").unwrap();
    let msg = open_error(&dir);
    assert!(msg.contains("KQvKR.rtbz"), "{msg}");
    let checks = verify_directory(&dir).unwrap();
    assert_eq!(checks.iter().find(|c| c.path.ends_with("KQvKR.rtbz")).unwrap().status, FileStatus::BadSize);

    let Some(dir) = copy_tables("directory") else { return };
    std::fs::remove_file(dir.join("KQvKR.rtbw")).unwrap();
    std::fs::create_dir(dir.join("KQvKR.rtbw")).unwrap();
    let msg = open_error(&dir);
    assert!(msg.contains("KQvKR.rtbw") && msg.contains("not a regular file"), "{msg}");
    let checks = verify_directory(&dir).unwrap();
    assert_eq!(checks.iter().find(|c| c.path.ends_with("KQvKR.rtbw")).unwrap().status, FileStatus::Unreadable);
}

#[test]
fn damaged_body_never_panics() {
    let Some(src) = shared_dir() else { return };
    let original = std::fs::read(src.join("KQvKR.rtbw")).unwrap();
    let positions = kqkr_positions(100);
    let good = pristine(&positions);
    let mut rng = Rng::new(3);
    let (mut errors, mut wrong, mut probes) = (0, 0, 0);
    for round in 0..10 {
        let Some(dir) = copy_tables(&format!("body-{round}")) else { return };
        let mut bytes = original.clone();
        // Flip a run of bytes past the header and before the closing checksum; the
        // last rounds damage every 64th byte of the data, so that probes read damage.
        let at = 64 + rng.below(bytes.len() - 64 - 16 - 8);
        let end = bytes.len() - 16;
        let damaged: Vec<usize> =
            if round < 8 { (at..at + 8).collect() } else { (at % 64 + 64..end).step_by(64).collect() };
        for i in damaged {
            bytes[i] ^= 1 + rng.below(255) as u8;
        }
        std::fs::write(dir.join("KQvKR.rtbw"), &bytes).unwrap();
        let checks = verify_directory(&dir).unwrap();
        let status = &checks.iter().find(|c| c.path.ends_with("KQvKR.rtbw")).unwrap().status;
        assert_eq!(*status, FileStatus::ContentsDamaged, "damage at byte {at} not found by the check");
        let (prober, _) = SyzygyProber::open(&dir).unwrap();
        for (r, g) in probe_all(&prober, &positions).iter().zip(&good) {
            probes += 1;
            match r {
                Err(_) => errors += 1,
                Ok(v) if v != g => wrong += 1,
                Ok(_) => {}
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
    // Not asserted: probes cannot detect such damage, so some answers may be wrong;
    // the checksum check above is what finds it.
    println!("damaged bodies: {probes} probes, {errors} errors, {wrong} wrong values, no panic");
}

#[test]
fn intact_tables_pass_the_check_and_a_swapped_checksum_does_not() {
    let Some(src) = shared_dir() else { return };
    let checks = verify_directory(&src).unwrap();
    assert!(checks.len() >= 70, "{} files", checks.len());
    for c in &checks {
        assert_eq!(c.status, FileStatus::Ok, "{}", c.to_line());
    }
    // A file under another table's name: intact contents, but not the published checksum.
    let Some(dir) = copy_tables("swapped") else { return };
    std::fs::copy(src.join("KQvK.rtbw"), dir.join("KRvK.rtbw")).unwrap();
    let checks = verify_directory(&dir).unwrap();
    let c = checks.iter().find(|c| c.path.ends_with("KRvK.rtbw")).unwrap();
    assert_eq!(c.status, FileStatus::ChecksumMismatch, "{}", c.to_line());
}
