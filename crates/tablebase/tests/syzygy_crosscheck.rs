//! Cross-check of `bastion tb syzygy` against python-chess's `chess.syzygy` on the
//! shared Syzygy files (all 3- and 4-man tables): for random legal positions of
//! every table, both sides to move, en-passant positions included, the WDL and DTZ
//! of the position and of every legal move must be python-chess's.
//!
//! The tables are expected in `../shared/data/syzygy` beside the repository
//! (`SYZYGY_DIR` overrides); without them the test says so and passes. The number
//! of positions is `SYZYGY_CROSSCHECK_N` (default 350), the seed
//! `SYZYGY_CROSSCHECK_SEED`.

use bastion_core::rng::Rng;
use bastion_core::tablebase::Wdl;
use bastion_core::Position;
use bastion_tablebase::syzygy::positions::{parse_syzygy_name, random_en_passant_position, random_position};
use bastion_tablebase::syzygy::report::SyzygyReport;
use bastion_tablebase::SyzygyProber;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The shared tables, or `None` (with a message) when they are not there.
fn table_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SYZYGY_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy"));
    if dir.join("KQvK.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: no Syzygy tables in {} (set SYZYGY_DIR)", dir.display());
        None
    }
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `n` positions spread over every table in `dir`: round-robin over the tables, and
/// every other position of a table with a pawn on each side has an en-passant square.
fn positions(dir: &std::path::Path, n: usize, seed: u64) -> Vec<Position> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".rtbw").map(str::to_string))
        .collect();
    names.sort();
    let tables: Vec<_> = names.iter().map(|n| parse_syzygy_name(n).unwrap()).collect();
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            let m = &tables[i % tables.len()];
            let ep = (i / tables.len()) % 2 == 1;
            let ep_pos = if ep { random_en_passant_position(m, &mut rng) } else { None };
            ep_pos.unwrap_or_else(|| random_position(m, &mut rng).expect("a legal position"))
        })
        .collect()
}

#[test]
#[ignore = "needs python3 with python-chess and the shared Syzygy tables; run by .ci/run"]
fn syzygy_probes_equal_python_chess() {
    let Some(dir) = table_dir() else { return };
    let n = env_or("SYZYGY_CROSSCHECK_N", 350) as usize;
    let seed = env_or("SYZYGY_CROSSCHECK_SEED", 20_261_202);
    let start = std::time::Instant::now();
    let (prober, files) = SyzygyProber::open(&dir).unwrap();
    assert!(files >= 70, "{files} table files in {}", dir.display());
    let positions = positions(&dir, n, seed);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference/syzygy_reference.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed for this test");
    let input: String = positions.iter().map(|p| p.fen() + "\n").collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "python-chess reference failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), positions.len(), "one answer per position");

    let (mut mismatches, mut moves, mut en_passant, mut fifty) = (Vec::new(), 0, 0, 0);
    let mut longest = (0, String::new());
    for (pos, line) in positions.iter().zip(&lines) {
        let theirs: Value = serde_json::from_str(line).unwrap();
        assert_eq!(theirs["fen"].as_str(), Some(pos.fen().as_str()));
        assert!(theirs.get("error").is_none(), "python-chess could not probe {}: {}", pos.fen(), theirs["error"]);
        let ours = match SyzygyReport::probe(&prober, pos) {
            Ok(r) => r,
            Err(e) => {
                mismatches.push(format!("{}: ours failed: {e}", pos.fen()));
                continue;
            }
        };
        if pos.ep_square().is_some() {
            en_passant += 1;
        }
        if matches!(ours.wdl, Wdl::CursedWin | Wdl::BlessedLoss) {
            fifty += 1;
        }
        if ours.dtz.abs() > longest.0 {
            longest = (ours.dtz.abs(), pos.fen());
        }
        let ours_root = (ours.wdl.to_i8() as i64, ours.dtz as i64);
        let theirs_root = (theirs["wdl"].as_i64().unwrap(), theirs["dtz"].as_i64().unwrap());
        if ours_root != theirs_root {
            mismatches.push(format!("{}: (wdl, dtz) ours {ours_root:?}, python-chess {theirs_root:?}", pos.fen()));
        }
        let ours_moves: BTreeMap<String, (i64, i64)> =
            ours.moves.iter().map(|m| (m.uci.clone(), (m.wdl.flip().to_i8() as i64, m.dtz_after as i64))).collect();
        let theirs_moves: BTreeMap<String, (i64, i64)> = theirs["moves"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())))
            .collect();
        if ours_moves != theirs_moves {
            mismatches.push(format!("{}: moves ours {ours_moves:?}, python-chess {theirs_moves:?}", pos.fen()));
        }
        moves += ours_moves.len();
    }
    println!(
        "compared {} positions ({en_passant} with en passant, {fifty} cursed wins or blessed losses) and {moves} \
         moves with python-chess in {:.1} s (seed {seed}): {} mismatches; largest |DTZ| {} ({})",
        positions.len(),
        start.elapsed().as_secs_f64(),
        mismatches.len(),
        longest.0,
        longest.1
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first ones:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(10)].join("\n")
    );
    assert!(en_passant > 0, "no en-passant position was compared");
}

#[test]
fn generated_positions_probe_without_errors() {
    let Some(dir) = table_dir() else { return };
    let (prober, _) = SyzygyProber::open(&dir).unwrap();
    for pos in positions(&dir, 140, 5) {
        let report = SyzygyReport::probe(&prober, &pos).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
        assert_eq!(report.moves.len(), pos.legal_moves().len());
        // The value is the best move's value, and a win has a positive DTZ.
        if let Some(best) = report.moves.first() {
            assert_eq!(best.wdl, report.wdl, "{}", pos.fen());
        }
        assert_eq!(report.dtz > 0, matches!(report.wdl, Wdl::Win | Wdl::CursedWin), "{}", pos.fen());
    }
}
