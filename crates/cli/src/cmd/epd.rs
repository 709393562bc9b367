//! `bastion epd`: run an EPD test suite (bm/am/dm) on any UCI engine and
//! report solved counts, time to solution and a solved-by-time table.

use anyhow::{bail, Context, Result};
use bastion_arena::referee::EngineConfig;
use bastion_arena::suite::{run_suite, PositionResult, SuiteConfig, SuiteReport};
use bastion_core::epd::Epd;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `bastion epd`.
#[derive(Args, Debug)]
pub struct EpdArgs {
    /// The EPD suite.
    file: PathBuf,
    /// Engine command line, e.g. `stockfish` or `"./bastion uci"`.
    #[arg(long)]
    engine: String,
    #[command(flatten)]
    suite: SuiteArgs,
}

/// How a suite is run and reported: shared by `bastion epd` and `bastion cluster epd`.
#[derive(Args, Debug)]
pub(crate) struct SuiteArgs {
    /// Time per position: `1s`, `500ms`, `2.5` (seconds); default 1s, or with
    /// --nodes 600s as a guard against a hung engine.
    #[arg(long)]
    time: Option<String>,
    /// Also report solved counts at these times (comma separated); the search
    /// runs for the largest of them and --time.
    #[arg(long, value_delimiter = ',')]
    times: Vec<String>,
    /// Search each position for this many nodes (`go nodes N`) instead of a time:
    /// reproducible on a loaded machine with one thread. --time then only bounds the wait.
    #[arg(long)]
    nodes: Option<u64>,
    /// Engine threads (UCI Threads option).
    #[arg(long)]
    threads: Option<u32>,
    /// Engine hash in MB (UCI Hash option).
    #[arg(long)]
    hash: Option<u32>,
    /// UCI options `NAME=VALUE` to set (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Only the first N positions.
    #[arg(long)]
    pub(crate) limit: Option<usize>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}

impl SuiteArgs {
    /// The suite run's configuration for an engine command line.
    pub(crate) fn config(&self, engine: String) -> Result<SuiteConfig> {
        if self.nodes == Some(0) {
            bail!("--nodes must be positive");
        }
        let time = self.time.as_deref().unwrap_or(if self.nodes.is_some() { "600s" } else { "1s" });
        let mut times = vec![parse_duration(time)?];
        for t in &self.times {
            times.push(parse_duration(t)?);
        }
        let mut options = Vec::new();
        for o in &self.options {
            let (k, v) = o.split_once('=').with_context(|| format!("--option {o:?} is not NAME=VALUE"))?;
            options.push((k.to_string(), v.to_string()));
        }
        Ok(SuiteConfig {
            engine: EngineConfig { name: engine.clone(), command: engine, options, ..EngineConfig::default() },
            times,
            threads: self.threads,
            hash: self.hash,
            margin: Duration::from_secs(5),
            nodes: self.nodes,
        })
    }
}

/// Reads `1s`, `250ms`, `2.5s`, `3` (seconds) with core's duration reader; a time per
/// position must also be positive and at most a day.
pub(crate) fn parse_duration(text: &str) -> Result<Duration> {
    let d = bastion_core::duration::parse_duration(text)?;
    if d.is_zero() || d > Duration::from_secs(86_400) {
        bail!("time {text:?} must be positive and under a day");
    }
    Ok(d)
}

/// Whether a final score was decided by a mate or a tablebase (`#3`, `#-2`, or 100
/// pawns and more, where engines put tablebase wins). Such a search runs to the
/// engine's depth cap at once, so its depth says nothing about the search.
fn decided(score: Option<&str>) -> bool {
    match score {
        Some(s) if s.starts_with('#') => true,
        Some(s) => s.parse::<f64>().is_ok_and(|pawns| pawns.abs() >= 100.0),
        None => false,
    }
}

/// Sets the mean depth over the positions whose score was not decided by a mate or a
/// tablebase; returns how many positions with a depth were left out.
fn exclude_decided_depths(report: &mut SuiteReport) -> usize {
    let (decided, open): (Vec<_>, Vec<_>) =
        report.results.iter().filter(|r| r.depth.is_some()).partition(|r| decided(r.score.as_deref()));
    let depths: Vec<f64> = open.iter().filter_map(|r| r.depth).map(f64::from).collect();
    report.mean_depth = (!depths.is_empty()).then(|| depths.iter().sum::<f64>() / depths.len() as f64);
    decided.len()
}

/// Runs the subcommand.
pub fn run(args: EpdArgs) -> Result<()> {
    let text = bastion_core::io::read_to_string_bounded(&args.file, bastion_core::io::TEXT_LIMIT)
        .map_err(bastion_core::io::BoundedReadError::into_io)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        entries.push(Epd::parse(t).with_context(|| format!("{}:{}", args.file.display(), i + 1))?);
    }
    if let Some(n) = args.suite.limit {
        entries.truncate(n);
    }
    if entries.is_empty() {
        bail!("{} holds no positions", args.file.display());
    }
    let config = args.suite.config(args.engine.clone())?;
    let interrupt = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupt.clone();
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(entries.len() as u64);
        bar.set_style(ProgressStyle::with_template("{pos}/{len} [{elapsed_precise}] {msg}").expect("valid template"));
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut solved = 0;
    let stop = || interrupt.load(Ordering::Relaxed);
    let report = run_suite(&entries, &config, &stop, |r| {
        solved += usize::from(r.solved);
        bar.inc(1);
        bar.set_message(format!("solved {solved}/{}", r.index));
        if bar.is_hidden() && !args.suite.json {
            eprintln!("{}", position_line(r));
        }
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    print_report(report, args.suite.json)
}

/// One position's result as it is printed while a suite runs.
pub(crate) fn position_line(r: &PositionResult) -> String {
    let id = r.id.clone().unwrap_or_else(|| format!("#{}", r.index));
    let status = match (&r.error, r.solve_time) {
        (Some(e), _) => format!("error: {e}"),
        (None, Some(t)) => format!("solved in {t:.2} s"),
        (None, None) => "not solved".into(),
    };
    format!("{id}: {} -> {} ({status})", r.expected, r.found.as_deref().unwrap_or("-"))
}

/// Prints the report, as text or one JSON document; the mean depth leaves out positions
/// decided by a mate or tablebase score.
pub(crate) fn print_report(mut report: SuiteReport, json: bool) -> Result<()> {
    let excluded = exclude_decided_depths(&mut report);
    if json {
        let mut doc = serde_json::to_value(&report)?;
        doc["mean_depth_excluded"] = excluded.into();
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        let text = report.to_text();
        let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
        println!("{first}");
        if excluded > 0 {
            let what = crate::plural::count(excluded as u64, "position", "positions");
            println!("(the mean depth leaves out {what} decided by a mate or tablebase score)");
        }
        print!("{rest}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_and_tablebase_scores_are_decided() {
        for s in ["#1", "#-3", "+200.00", "-153.20"] {
            assert!(decided(Some(s)), "{s}");
        }
        for s in [None, Some("+1.25"), Some("-0.30"), Some("0.00")] {
            assert!(!decided(s), "{s:?}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1s").unwrap(), Duration::from_secs(1));
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("2.5").unwrap(), Duration::from_millis(2500));
        for bad in ["", "x", "-1", "0", "1e9"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
