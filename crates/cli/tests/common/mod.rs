//! Helpers the CLI's integration tests share: run the `bastion` binary as a user would.

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub const BASTION: &str = env!("CARGO_BIN_EXE_bastion");

/// Runs `bastion` with `args` and no input.
pub fn bastion(args: &[&str]) -> Output {
    Command::new(BASTION).args(args).output().expect("run bastion")
}

/// Runs `bastion` with `args`, writing `stdin` to its standard input.
pub fn bastion_with_input(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BASTION)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run bastion");
    // A command that refuses its arguments exits without reading its input: a broken pipe
    // then is part of the test, not a failure of it.
    if let Err(e) = child.stdin.take().expect("piped stdin").write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait for bastion")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
