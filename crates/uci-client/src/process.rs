//! Background threads that read the engine's output streams.
//!
//! Blocking reads cannot time out, so stdout is read on its own thread and
//! forwarded line by line through a channel, which the engine handle reads
//! with `recv_timeout`. Each line is stamped with the instant it was read so
//! search times do not include delays in the consumer.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

/// Longest line we keep in one piece. A broken engine that writes without
/// newlines must not make us buffer without limit; longer lines are split.
const MAX_LINE: u64 = 1 << 20;

/// Number of stderr lines kept for diagnostics.
pub(crate) const STDERR_TAIL_LINES: usize = 100;

/// What the stdout reader thread reports.
pub(crate) enum Event {
    /// One line of output, without its line terminator.
    Line {
        /// The text, decoded lossily (engines occasionally emit bad UTF-8).
        text: String,
        /// When the reader thread received it.
        at: Instant,
    },
    /// The engine closed stdout: it exited or crashed.
    Eof,
}

/// Reads `stream` line by line and calls `emit` for each, until EOF, a read
/// error, or `emit` returns false.
fn for_each_line<R: Read>(stream: R, mut emit: impl FnMut(String, Instant) -> bool) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(_) => {
                let at = Instant::now();
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                if !emit(String::from_utf8_lossy(&buf).into_owned(), at) {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        }
    }
}

/// Starts the stdout reader thread and returns the receiving end.
pub(crate) fn spawn_stdout_reader<R: Read + Send + 'static>(stdout: R) -> std::io::Result<Receiver<Event>> {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = mpsc::channel();
    thread::Builder::new().name("uci-stdout".into()).spawn(move || {
        // A failed send means the engine handle was dropped: stop.
        for_each_line(stdout, |text, at| tx.send(Event::Line { text, at }).is_ok());
        let _ = tx.send(Event::Eof);
    })?;
    Ok(rx)
}

/// Shared ring buffer of the last stderr lines.
pub(crate) type StderrTail = Arc<Mutex<VecDeque<String>>>;

/// Starts a thread that keeps the last [`STDERR_TAIL_LINES`] stderr lines.
///
/// Stderr must be drained even if nobody looks at it: an engine that fills
/// the pipe buffer would block forever on its next diagnostic write.
pub(crate) fn spawn_stderr_collector<R: Read + Send + 'static>(stderr: R, tail: StderrTail) -> std::io::Result<()> {
    thread::Builder::new().name("uci-stderr".into()).spawn(move || {
        for_each_line(stderr, |line, _| {
            // A poisoned lock only means another thread panicked while
            // holding it; the deque itself is still usable.
            let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
            if tail.len() == STDERR_TAIL_LINES {
                tail.pop_front();
            }
            tail.push_back(line);
            true
        });
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(input: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        for_each_line(input, |l, _| {
            out.push(l);
            true
        });
        out
    }

    #[test]
    fn splits_lines_and_strips_terminators() {
        assert_eq!(lines_of(b"uciok\r\nreadyok\nlast"), ["uciok", "readyok", "last"]);
        assert_eq!(lines_of(b""), Vec::<String>::new());
        assert_eq!(lines_of(b"\n\n"), ["", ""]);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(lines_of(b"id name \xff\n"), ["id name \u{fffd}"]);
    }

    #[test]
    fn overlong_lines_are_split() {
        let long = vec![b'x'; MAX_LINE as usize + 10];
        let lines = lines_of(&long);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), MAX_LINE as usize);
        assert_eq!(lines[1].len(), 10);
    }

    #[test]
    fn stderr_tail_keeps_last_lines() {
        let text: String = (0..150).map(|i| format!("line {i}\n")).collect();
        let tail = StderrTail::default();
        let reader = std::io::Cursor::new(text.into_bytes());
        spawn_stderr_collector(reader, tail.clone()).unwrap();
        let deadline = Instant::now() + std::time::Duration::from_secs(5);
        loop {
            let t = tail.lock().unwrap();
            if t.back().map(String::as_str) == Some("line 149") || Instant::now() > deadline {
                assert_eq!(t.len(), STDERR_TAIL_LINES);
                assert_eq!(t.front().map(String::as_str), Some("line 50"));
                break;
            }
            drop(t);
            thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}
