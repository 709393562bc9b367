//! `bastion perft`: one position, a suite limited with `--depth`, a failing suite and bad input.

mod common;

use common::bastion;

fn suite_file(name: &str, text: &str) -> std::path::PathBuf {
    let file = std::env::temp_dir().join(format!("bastion-perft-{name}-{}.perft", std::process::id()));
    std::fs::write(&file, text).unwrap();
    file
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
    let file = suite_file("limit", text);
    let path = file.to_str().unwrap();
    let limited = bastion(&["perft", "--suite", path, "--depth", "2", "--json"]);
    assert!(limited.status.success(), "{}", String::from_utf8_lossy(&limited.stderr));
    let v: serde_json::Value = serde_json::from_slice(&limited.stdout).unwrap();
    assert_eq!(v["checks"], 2);
    assert_eq!(v["nodes"], 48 + 2039);
    let full = bastion(&["perft", "--suite", path, "--no-bulk"]);
    std::fs::remove_file(&file).ok();
    assert!(!full.status.success());
    let text = String::from_utf8_lossy(&full.stdout);
    assert!(text.contains("kiwi depth 3: got 97862, want 97863"), "{text}");
}

#[test]
fn bad_fen_and_bad_suite_are_clear_errors() {
    let out = bastion(&["perft", "2", "--fen", "rnbqkbnr/pppppppp/8/8 w KQkq -"]);
    assert!(!out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let file = suite_file("bad", "perft 1 20\n");
    let out = bastion(&["perft", "--suite", file.to_str().unwrap()]);
    std::fs::remove_file(&file).ok();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1"), "{err}");
}
