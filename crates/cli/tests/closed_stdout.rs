//! A reader that stops reading (`bastion … | head -1`) must not turn into a crash report.

use std::process::{Command, Stdio};

fn run_with_closed_stdout(args: &[&str]) {
    // The read end is closed before the child starts, so its first write fails for sure.
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let output = Command::new(env!("CARGO_BIN_EXE_bastion"))
        .args(args)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("run bastion");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "status {:?}, stderr: {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}

#[test]
fn perft_with_closed_stdout_exits_quietly() {
    run_with_closed_stdout(&["perft", "2", "--divide"]);
}

#[test]
fn println_commands_with_closed_stdout_exit_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().expect("utf-8 temp dir");
    let gen = Command::new(env!("CARGO_BIN_EXE_bastion"))
        .args(["tb", "gen", "KRK", "--dir", dir_arg])
        .output()
        .expect("run bastion tb gen");
    assert!(gen.status.success(), "{}", String::from_utf8_lossy(&gen.stderr));
    run_with_closed_stdout(&["tb", "stats", "KRK", "--dir", dir_arg]);
}
