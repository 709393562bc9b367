//! What a new user meets first on the command line: a long solve that says it is
//! working, a huge perft that asks first, counts in the right number, an OS error
//! said once, a PGN that is "not a Polyglot book", engines named by their `id name`,
//! a suite's mean depth without mate positions, a readable Progressive self-play
//! report, and no option that does nothing.

mod common;

use common::{bastion, BASTION};
use std::path::{Path, PathBuf};
use std::process::Output;

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The file `name` in `dir`, holding `contents`.
fn temp_file(dir: &Path, name: &str, contents: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn solve_has_a_default_time_limit_and_says_what_it_does() {
    let out = bastion(&["solve", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--mate", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("solving #1 (time limit 60 s)"), "{}", stderr(&out));
    assert!(stdout(&out).contains("Ra8"), "{}", stdout(&out));
    // A problem it cannot finish in time ends with a message that says how to allow more.
    let out = bastion(&["solve", STARTPOS, "--mate", "8", "--time-limit", "0.3"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("time limit reached (0.3 s)") && err.contains("--time-limit"), "{err}");
}

#[test]
fn perft_refuses_a_huge_count_without_force() {
    for args in [
        &["perft", "8"][..],
        &["perft", "7", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"][..],
    ] {
        let out = bastion(args);
        assert!(!out.status.success(), "{args:?} ran");
        let err = stderr(&out);
        assert!(err.contains("--force") && err.contains("nodes"), "{args:?}: {err}");
        assert!(stdout(&out).is_empty());
    }
    // Small counts run as before, and --force lets a count through.
    let out = bastion(&["perft", "3", "--force", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nodes"], 8902);
}

#[test]
fn counts_of_one_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    let suite = temp_file(
        dir.path(),
        "one.perft",
        b"id start\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\n",
    );
    let out = bastion(&["perft", "--suite", suite.to_str().unwrap(), "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("1 position, 1 check, 0 failed (1 thread)"), "{}", stdout(&out));

    let out = bastion(&["progressive", "mate", "startpos", "--time", "100ms"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("series 1 (1 move left)"), "{}", stdout(&out));
}

#[test]
fn an_os_error_is_printed_once() {
    let out = bastion(&["fortress", "--engine", "/nonexistent/engine", "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    let os_error = std::io::Error::from(std::io::ErrorKind::NotFound).to_string();
    assert!(err.contains("/nonexistent/engine"), "{err}");
    assert_eq!(err.matches("(os error 2)").count(), 1, "{err} ({os_error})");
}

#[test]
fn book_probe_says_when_a_file_is_not_a_polyglot_book() {
    // A PGN whose size is not a multiple of 16, and one whose size is (96 bytes): its
    // "entries" are text, not sorted by key.
    let dir = tempfile::tempdir().unwrap();
    let odd = temp_file(dir.path(), "odd.pgn", b"[Event \"x\"]\n\n1. e4 e5 *\n");
    let pgn = b"[Event \"A casual game\"]\n[White \"Morphy\"]\n[Black \"Duke\"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 *\n\n\n\n\n\n\n\n\n";
    assert_eq!(pgn.len() % 16, 0);
    let even = temp_file(dir.path(), "even.pgn", pgn);
    for (file, why) in [(&odd, "is not a multiple of 16"), (&even, "out of key order")] {
        let out = bastion(&["book", "probe", file.to_str().unwrap()]);
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.contains("not a Polyglot book") && err.contains(why), "{err}");
        assert!(!stdout(&out).contains("no book moves"));
    }
    // A real book (built here) still probes.
    let games = temp_file(
        dir.path(),
        "games.pgn",
        b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n",
    );
    let book = dir.path().join("book.bin");
    let built = bastion(&["book", "build", games.to_str().unwrap(), "-o", book.to_str().unwrap()]);
    assert!(built.status.success(), "{}", stderr(&built));
    let out = bastion(&["book", "probe", book.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("e2e4"), "{}", stdout(&out));
}

#[test]
fn match_names_engines_by_their_id_name() {
    let engine = format!("cmd={BASTION} uci");
    let out = bastion(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--nodes",
        "300",
        "--games",
        "2",
        "--max-moves",
        "6",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let name = v["engines"][0].as_str().unwrap();
    assert!(name.starts_with("Bastion"), "{v}");
    assert_eq!(v["engines"][1], format!("{name} (2)"));
    assert_eq!(v["games"], 2);
}

#[test]
fn epd_mean_depth_leaves_out_mates() {
    let dir = tempfile::tempdir().unwrap();
    let suite = temp_file(
        dir.path(),
        "depth.epd",
        b"6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1; id \"mate\";\n\
          r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"quiet\";\n",
    );
    let engine = format!("{BASTION} uci");
    let out = bastion(&[
        "epd",
        "--engine",
        &engine,
        "--nodes",
        "5000",
        "--threads",
        "1",
        "--hash",
        "16",
        "--json",
        suite.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let quiet = v["results"].as_array().unwrap().iter().find(|r| r["id"] == "quiet").unwrap();
    assert_eq!(v["mean_depth"].as_f64(), quiet["depth"].as_f64(), "{v}");
    assert_eq!(v["mean_depth_excluded"], 1, "{v}");
}

#[test]
fn progressive_selfplay_reads_well_after_two_games() {
    let out = bastion(&["progressive", "selfplay", "--games", "2", "--time", "50ms", "--max-turns", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (text, progress) = (stdout(&out), stderr(&out));
    for bad in ["Some(", "None", "[]", "± 0.0%"] {
        assert!(!text.contains(bad) && !progress.contains(bad), "{bad:?} in:\n{text}\n{progress}");
    }
    assert!(text.contains("too few games for an error bar"), "{text}");
    assert!(text.contains("A: defaults  B: defaults  2 games"), "{text}");
    assert!(progress.contains("(adjudicated)"), "{progress}");
}

#[test]
fn serve_has_no_data_dir_option() {
    let out = bastion(&["serve", "--data-dir", "somewhere"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("unexpected argument '--data-dir'"), "{}", stderr(&out));
    assert!(!stdout(&bastion(&["serve", "--help"])).contains("data-dir"));
}

#[test]
fn bench_times_another_network_or_the_hand_written_evaluation() {
    let nodes = |args: &[&str]| -> u64 {
        let out = bastion(args);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON document");
        v["nodes"].as_u64().unwrap()
    };
    let default = nodes(&["bench", "5", "--json"]);
    assert_eq!(nodes(&["bench", "5", "--json", "--eval-file", "<internal>"]), default);
    assert_ne!(nodes(&["bench", "5", "--json", "--eval-file", "none"]), default, "another evaluation, another tree");
    let dir = tempfile::tempdir().unwrap();
    let bad = temp_file(dir.path(), "not-a-network.nnue", b"not a network");
    let out = bastion(&["bench", "5", "--eval-file", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("reading network"), "{}", stderr(&out));
}
