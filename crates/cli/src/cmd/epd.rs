//! `bastion epd`: run an EPD test suite (bm/am/dm) on any UCI engine and
//! report solved counts, time to solution and a solved-by-time table.

use anyhow::{bail, Context, Result};
use bastion_arena::referee::EngineConfig;
use bastion_arena::suite::{run_suite, SuiteConfig};
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
    limit: Option<usize>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Reads `1s`, `250ms`, `2.5s`, `3` (seconds) with core's duration reader; a time per
/// position must also be positive and at most a day.
fn parse_duration(text: &str) -> Result<Duration> {
    let d = bastion_core::duration::parse_duration(text)?;
    if d.is_zero() || d > Duration::from_secs(86_400) {
        bail!("time {text:?} must be positive and under a day");
    }
    Ok(d)
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
    if let Some(n) = args.limit {
        entries.truncate(n);
    }
    if entries.is_empty() {
        bail!("{} holds no positions", args.file.display());
    }
    if args.nodes == Some(0) {
        bail!("--nodes must be positive");
    }
    let time = args.time.as_deref().unwrap_or(if args.nodes.is_some() { "600s" } else { "1s" });
    let mut times = vec![parse_duration(time)?];
    for t in &args.times {
        times.push(parse_duration(t)?);
    }
    let mut options = Vec::new();
    for o in &args.options {
        let (k, v) = o.split_once('=').with_context(|| format!("--option {o:?} is not NAME=VALUE"))?;
        options.push((k.to_string(), v.to_string()));
    }
    let config = SuiteConfig {
        engine: EngineConfig {
            name: args.engine.clone(),
            command: args.engine.clone(),
            options,
            ..EngineConfig::default()
        },
        times,
        threads: args.threads,
        hash: args.hash,
        margin: Duration::from_secs(5),
        nodes: args.nodes,
    };
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
        if bar.is_hidden() && !args.json {
            let id = r.id.clone().unwrap_or_else(|| format!("#{}", r.index));
            let status = match (&r.error, r.solve_time) {
                (Some(e), _) => format!("error: {e}"),
                (None, Some(t)) => format!("solved in {t:.2} s"),
                (None, None) => "not solved".into(),
            };
            eprintln!("{id}: {} -> {} ({status})", r.expected, r.found.as_deref().unwrap_or("-"));
        }
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
