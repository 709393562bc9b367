//! Progress for long jobs, wherever their standard error goes.
//!
//! On a terminal a job shows an `indicatif` bar, redrawn in place. Written to a file or a
//! pipe (a job under `nohup`, a CI log, `2> log`), the same bar would draw nothing at all:
//! `indicatif` hides itself when standard error is not a terminal. There the bars made here
//! write their state as one plain line every [`LOG_INTERVAL`] instead, so that an hours-long
//! table generation or self-play run shows in its log that it is alive and how far it got.
//! Jobs shorter than the interval print nothing extra, which keeps short runs and tests quiet.

#![warn(missing_docs)]

mod log_lines;

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use log_lines::LogLines;

/// How often a bar writes a line when standard error is not a terminal.
pub const LOG_INTERVAL: Duration = Duration::from_secs(30);

/// Template of a bar with a length in a log: elapsed time, prefix, position and message.
const LOG_BAR: &str = "[{elapsed_precise}] {prefix} {human_pos}/{human_len} {msg}";
/// Template of a spinner (no length) in a log.
const LOG_SPINNER: &str = "[{elapsed_precise}] {prefix} {msg}";

/// A bar of `len` steps drawn with `template` on a terminal, or as a plain line every
/// [`LOG_INTERVAL`] into a log; hidden when `show` is false (a `--json` run).
///
/// # Panics
/// If `template` is not a valid `indicatif` template (a programming error).
pub fn bar(show: bool, len: u64, template: &str) -> ProgressBar {
    if !show {
        ProgressBar::hidden()
    } else if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(len);
        bar.set_style(ProgressStyle::with_template(template).expect("valid progress template"));
        bar
    } else {
        logged(Some(len), LOG_BAR)
    }
}

/// A spinner (a job of unknown length) drawn with `template` on a terminal, ticking by
/// itself, or as a plain line every [`LOG_INTERVAL`] into a log; hidden when `show` is false.
///
/// # Panics
/// If `template` is not a valid `indicatif` template (a programming error).
pub fn spinner(show: bool, template: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new_spinner();
        bar.set_style(ProgressStyle::with_template(template).expect("valid progress template"));
        bar
    } else {
        logged(None, LOG_SPINNER)
    };
    // The ticks also time the log lines of a job that reports rarely.
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// A bar that writes to standard error through [`LogLines`].
fn logged(len: Option<u64>, template: &str) -> ProgressBar {
    let target = ProgressDrawTarget::term_like(Box::new(LogLines::stderr(LOG_INTERVAL)));
    let bar = ProgressBar::with_draw_target(len, target);
    bar.set_style(ProgressStyle::with_template(template).expect("valid progress template"));
    bar
}
