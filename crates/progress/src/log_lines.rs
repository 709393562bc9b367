//! A terminal stand-in that turns a bar's redraws into occasional plain lines.

use std::fmt;
use std::io::{self, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::TermLike;

/// Where [`LogLines`] writes: shared, so that a test can read what was written.
pub(crate) type Sink = Arc<Mutex<dyn Write + Send>>;

/// An `indicatif` draw target for logs: it ignores cursor movement, gathers what one redraw
/// writes, and at the redraw's flush writes it as one line, if `interval` has passed since
/// the last line written (or, for the first, since it was made).
pub(crate) struct LogLines {
    out: Sink,
    interval: Duration,
    state: Mutex<State>,
}

/// The redraw being gathered and when the last line was written.
struct State {
    pending: String,
    last: Instant,
}

impl LogLines {
    /// Lines to standard error.
    pub(crate) fn stderr(interval: Duration) -> LogLines {
        LogLines::new(Arc::new(Mutex::new(io::stderr())), interval)
    }

    /// Lines to `out`.
    pub(crate) fn new(out: Sink, interval: Duration) -> LogLines {
        LogLines { out, interval, state: Mutex::new(State { pending: String::new(), last: Instant::now() }) }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while gathering leaves at worst a partial line, which the next redraw replaces.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds what a redraw wrote, as words: bars pad and align with spaces, which a log
    /// does not need (an empty `{prefix}` would leave two in a row).
    fn gather(&self, s: &str) {
        let mut state = self.state();
        for word in s.split_whitespace() {
            if !state.pending.is_empty() {
                state.pending.push(' ');
            }
            state.pending.push_str(word);
        }
    }
}

impl fmt::Debug for LogLines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LogLines").field("interval", &self.interval).finish_non_exhaustive()
    }
}

impl TermLike for LogLines {
    /// Wide enough that a bar's line is never wrapped or cut.
    fn width(&self) -> u16 {
        200
    }

    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.gather(s);
        Ok(())
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.gather(s);
        Ok(())
    }

    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }

    fn flush(&self) -> io::Result<()> {
        let mut state = self.state();
        let line = std::mem::take(&mut state.pending);
        if line.is_empty() || state.last.elapsed() < self.interval {
            return Ok(());
        }
        state.last = Instant::now();
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(out, "{line}")?;
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

    fn sink() -> (Arc<Mutex<Vec<u8>>>, Sink) {
        let buf = Arc::new(Mutex::new(Vec::new()));
        (buf.clone(), buf)
    }

    fn text(buf: &Arc<Mutex<Vec<u8>>>) -> String {
        String::from_utf8(buf.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn a_redraw_becomes_one_plain_line() {
        let (buf, out) = sink();
        let term = LogLines::new(out, Duration::ZERO);
        term.write_str("\r").unwrap();
        term.clear_line().unwrap();
        term.write_line("12/40 games").unwrap();
        term.write_str("  9,812   positions  ").unwrap();
        term.flush().unwrap();
        assert_eq!(text(&buf), "12/40 games 9,812 positions\n");
        // A redraw that writes nothing (a cleared bar) writes no line.
        term.flush().unwrap();
        assert_eq!(text(&buf), "12/40 games 9,812 positions\n");
    }

    #[test]
    fn nothing_is_written_before_the_interval_has_passed() {
        let (buf, out) = sink();
        let term = LogLines::new(out, Duration::from_secs(3600));
        for i in 0..100 {
            term.write_str(&format!("{i}/100")).unwrap();
            term.flush().unwrap();
        }
        assert_eq!(text(&buf), "");
    }

    #[test]
    fn a_bar_in_a_log_writes_its_position_and_message() {
        let (buf, out) = sink();
        let target = ProgressDrawTarget::term_like(Box::new(LogLines::new(out, Duration::ZERO)));
        let bar = ProgressBar::with_draw_target(Some(40), target);
        bar.set_style(ProgressStyle::with_template("{human_pos}/{human_len} {msg}").unwrap());
        bar.set_message("games");
        bar.set_position(12);
        bar.finish();
        let log = text(&buf);
        assert!(log.lines().any(|l| l == "12/40 games"), "{log:?}");
        assert!(log.lines().all(|l| !l.contains('\r') && !l.trim().is_empty()), "{log:?}");
    }
}
