//! What the cluster-search tests on the local transport share: rank 0's input and output as a
//! GUI sees them, and checks that fail instead of hanging.

// Each test file uses a part of this module.
#![allow(dead_code)]

use bastion_core::Position;
use std::io::{self, Read, Write};
use std::sync::mpsc::{Receiver, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Generous: the tests check what happens, never how fast, on a machine shared with builds.
pub const LIMIT: Duration = Duration::from_secs(60);

/// The GUI's side of rank 0's input: chunks of bytes, end of input when the sender goes.
pub struct Input {
    chunks: Receiver<Vec<u8>>,
    left: Vec<u8>,
}

impl Input {
    /// Input that reads what is sent to `chunks`' sender.
    pub fn new(chunks: Receiver<Vec<u8>>) -> Input {
        Input { chunks, left: Vec::new() }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left.is_empty() {
            match self.chunks.recv() {
                Ok(chunk) => self.left = chunk,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.left.len());
        buf[..n].copy_from_slice(&self.left[..n]);
        self.left.drain(..n);
        Ok(n)
    }
}

/// Rank 0's output, line by line, for the test to read.
pub struct Lines {
    to: Sender<String>,
    pending: Vec<u8>,
}

impl Lines {
    /// Output whose complete lines go to `to`.
    pub fn new(to: Sender<String>) -> Lines {
        Lines { to, pending: Vec::new() }
    }
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let _ = self.to.send(String::from_utf8_lossy(&line[..end]).into_owned());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The lines of `output` up to and including the first that starts with `prefix`, failing the
/// test after [`LIMIT`].
pub fn until(output: &Receiver<String>, prefix: &str) -> Vec<String> {
    let deadline = Instant::now() + LIMIT;
    let mut lines = Vec::new();
    loop {
        match output.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                let done = line.starts_with(prefix);
                lines.push(line);
                if done {
                    return lines;
                }
            }
            Err(_) => panic!("no line starting with {prefix:?} within {LIMIT:?}; got {lines:?}"),
        }
    }
}

/// Joins a rank's thread, failing (not hanging) the test after [`LIMIT`].
pub fn join<T: Send + 'static>(handle: JoinHandle<T>) -> T {
    let deadline = Instant::now() + LIMIT;
    while !handle.is_finished() {
        assert!(Instant::now() < deadline, "a rank did not end within {LIMIT:?}: a hang");
        thread::sleep(Duration::from_millis(5));
    }
    handle.join().expect("the rank's thread does not panic")
}

/// The move of a `bestmove` line, checked to be legal in `pos`.
pub fn legal(pos: &Position, bestmove: &str) -> String {
    let mv = bestmove.split_whitespace().nth(1).unwrap_or_else(|| panic!("no move in {bestmove:?}"));
    let parsed = pos.parse_uci(mv).unwrap_or_else(|_| panic!("{mv} is no move in {}", pos.fen()));
    assert!(pos.is_legal(parsed), "{mv} is not legal in {}", pos.fen());
    mv.to_string()
}
