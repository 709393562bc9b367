//! The fake engine as the other crates' tests start it: it speaks UCI and plays a legal
//! move. Being an integration test of this package, it also makes `cargo test --workspace`
//! build the binary next to the others (`<target>/<profile>/bastion-test-engine`), where
//! [`bastion_test_engine::cargo_bin`] finds it under `BASTION_TEST_PREBUILT_BINS`.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn the_fake_engine_answers_uci_and_plays_the_first_legal_move() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bastion-test-engine"))
        .args(["--play", "first", "--name", "Fake"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the fake engine");
    child.stdin.take().unwrap().write_all(b"uci\nisready\nposition startpos moves e2e4\ngo depth 1\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("id name Fake") && text.contains("uciok") && text.contains("readyok"), "{text}");
    let best = text.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove line");
    let mv = best.split_whitespace().next().unwrap();
    assert_eq!(mv.len(), 4, "{text}");
    assert!(["a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "b8", "g8"].contains(&&mv[..2]), "{text}");
}
