//! `bastion perft`: one position, a suite limited with `--depth`, a failing suite and bad input.

mod common;

use common::bastion;

/// A suite file holding `text`, in a directory of its own that is removed when dropped.
fn suite_file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("suite.perft");
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

#[test]
fn one_position_json() {
    let out =
        bastion(&["perft", "3", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nodes"], 97_862);
}

#[test]
fn suite_depth_limit_and_failures() {
    // Depth 3 of this case is deliberately wrong: `--depth 2` must skip it, a full run must report it.
    let text = "id kiwi\nepd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\nperft 1 48\nperft 2 2039\nperft 3 97863\n";
    let (_dir, file) = suite_file(text);
    let path = file.to_str().unwrap();
    let limited = bastion(&["perft", "--suite", path, "--depth", "2", "--json"]);
    assert!(limited.status.success(), "{}", String::from_utf8_lossy(&limited.stderr));
    let v: serde_json::Value = serde_json::from_slice(&limited.stdout).unwrap();
    assert_eq!(v["checks"], 2);
    assert_eq!(v["nodes"], 48 + 2039);
    let full = bastion(&["perft", "--suite", path, "--no-bulk"]);
    assert!(!full.status.success());
    let text = String::from_utf8_lossy(&full.stdout);
    assert!(text.contains("kiwi depth 3: got 97862, want 97863"), "{text}");
}

#[test]
fn bad_fen_and_bad_suite_are_clear_errors() {
    let out = bastion(&["perft", "2", "--fen", "rnbqkbnr/pppppppp/8/8 w KQkq -"]);
    assert!(!out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let (_dir, file) = suite_file("perft 1 20\n");
    let out = bastion(&["perft", "--suite", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1"), "{err}");
}
