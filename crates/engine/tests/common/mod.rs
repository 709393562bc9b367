//! A UCI session driven line by line, its output read from a channel.

// Each test file uses a part of this module.
#![allow(dead_code)]

use bastion_engine::protocol::UciSession;
use bastion_engine::EngineOptions;
use std::io::Write;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::{Duration, Instant};

/// A bound on one wait that only a hung engine reaches (it keeps a failing test from
/// running for ever).
pub const HANG: Duration = Duration::from_secs(120);

/// A `Write` that sends every complete output line through a channel.
pub struct LineSender {
    tx: Sender<String>,
    buf: Vec<u8>,
}

impl Write for LineSender {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        while let Some(end) = self.buf.iter().position(|&c| c == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=end).collect();
            let _ = self.tx.send(String::from_utf8_lossy(&line).trim_end().to_string());
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A session whose output lines arrive on the returned channel.
pub fn session() -> (UciSession<LineSender>, Receiver<String>) {
    session_with(EngineOptions::default())
}

/// [`session`] with `opts` as the engine's starting options.
pub fn session_with(opts: EngineOptions) -> (UciSession<LineSender>, Receiver<String>) {
    let (tx, rx) = channel();
    (UciSession::with_options(LineSender { tx, buf: Vec::new() }, opts), rx)
}

/// The lines up to and including the next line starting with `prefix`; panics if the
/// engine hangs.
pub fn until(rx: &Receiver<String>, prefix: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let deadline = Instant::now() + HANG;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = rx.recv_timeout(left).unwrap_or_else(|_| panic!("no {prefix:?} after {lines:#?}"));
        let done = line.starts_with(prefix);
        lines.push(line);
        if done {
            return lines;
        }
    }
}

/// The lines up to and including the next `bestmove`.
pub fn until_bestmove(rx: &Receiver<String>) -> Vec<String> {
    until(rx, "bestmove")
}

/// The value after `key` in an `info` line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace().skip_while(|&t| t != key).nth(1)
}
