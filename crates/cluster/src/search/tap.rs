//! [`Tap`]: where a rank's engine session writes, line by line, for the rank's main loop.

use std::io::{self, Write};
use std::sync::mpsc::Sender;

/// What reaches a rank's main loop: a line from the GUI (rank 0's input thread), the end of
/// the GUI's input, or a line the rank's session wrote.
#[derive(Debug, PartialEq, Eq)]
pub enum Feed {
    /// A line of input (rank 0 only).
    Input(String),
    /// The input has ended (rank 0 only).
    InputEnd,
    /// A line of the session's output, without its newline.
    Line(String),
}

/// The writer of a rank's [`super::UciSession`]: cuts what the session writes into lines and
/// sends each to the rank's main loop, which decides what reaches the GUI.
#[derive(Debug)]
pub struct Tap {
    to: Sender<Feed>,
    pending: Vec<u8>,
}

impl Tap {
    /// A tap sending lines to `to`.
    pub fn new(to: Sender<Feed>) -> Tap {
        Tap { to, pending: Vec::new() }
    }
}

impl Write for Tap {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]).trim_end_matches('\r').to_string();
            // A closed channel means the main loop has ended; the output has nowhere to go.
            let _ = self.to.send(Feed::Line(text));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
