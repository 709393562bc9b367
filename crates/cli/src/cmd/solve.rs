//! `bastion solve`: mate problems (`#n`, `h#n`, `s#n`, `ser-#n`) for one
//! position, or a whole EPD mate suite as a benchmark.

use anyhow::{bail, Context, Result};
use bastion_core::Position;
use bastion_solver::epd::{parse_suite, MateEntry};
use bastion_solver::suite::{run_entry_with, Row};
use bastion_solver::suite_report::{csv_row, progress_line, Selection, SuiteSummary, CSV_HEADER};
use bastion_solver::{Report, SolveOptions, Solver, Stipulation};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::time::{Duration, Instant};

/// Time limit of one problem when `--time-limit` is not given, in seconds: enough for
/// most problems, and a hopeless one ends with a message instead of seeming to hang.
const DEFAULT_PROBLEM_SECS: f64 = 60.0;
/// Time limit per position of a suite when `--time-limit` is not given, in seconds.
const DEFAULT_SUITE_SECS: f64 = 10.0;
/// Time between two progress lines while one problem is being solved.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// `println!` that reports a closed stdout (`| head`) as an error instead of panicking.
macro_rules! outln {
    ($($t:tt)*) => {
        writeln!(std::io::stdout().lock(), $($t)*)?
    };
}

/// Arguments of `bastion solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The problem position (FEN; quote it).
    #[arg(required_unless_present = "epd", conflicts_with = "epd")]
    fen: Option<String>,
    /// Direct mate in N moves (same as `--stipulation '#N'`).
    #[arg(long, conflicts_with = "stipulation")]
    mate: Option<u8>,
    /// Stipulation: `#3`, `h#2`, `h#2.5`, `s#2`, `ser-#5`.
    #[arg(long, short = 's')]
    stipulation: Option<String>,
    /// Print the full solution tree: every defence and the mating reply.
    #[arg(long)]
    all_defences: bool,
    /// Skip the threat search after quiet keys.
    #[arg(long)]
    no_threats: bool,
    /// An EPD suite with `bm #N` or `dm N` operations to solve and time.
    #[arg(long)]
    epd: Option<String>,
    /// With --epd: only entries with |N| at most this.
    #[arg(long)]
    max_mate: Option<u8>,
    /// With --epd: only entries with |N| at least this.
    #[arg(long, default_value_t = 1)]
    min_mate: u8,
    /// With --epd: only entries where the side to move mates (skip `#-N`).
    #[arg(long)]
    mates_only: bool,
    /// With --epd: at most this many entries per mate length.
    #[arg(long)]
    per_length: Option<usize>,
    /// With --epd: only prove a mate within N (no iterative deepening, so no
    /// proof that nothing shorter exists), as a UCI engine's `go mate N` does.
    #[arg(long)]
    within: bool,
    /// With --epd: skip the first K selected entries (to resume an interrupted run).
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Seconds allowed per problem (default 60; with --epd, per position, default 10).
    #[arg(long)]
    time_limit: Option<f64>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// With --epd: one CSV row per position.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the subcommand.
pub fn run(args: SolveArgs) -> Result<()> {
    if args.epd.is_some() {
        return run_suite(&args);
    }
    let fen = args.fen.as_deref().unwrap_or_default();
    let pos = Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))?;
    let stip = match (&args.stipulation, args.mate) {
        (Some(s), _) => s.parse::<Stipulation>()?,
        (None, Some(n)) => format!("#{n}").parse::<Stipulation>()?,
        (None, None) => bail!("say what to solve: --mate N or --stipulation '#N' | 'h#N' | 's#N' | 'ser-#N'"),
    };
    if pos.is_checkmate() || pos.is_stalemate() {
        bail!("the game is already over in this position (no legal moves)");
    }
    let mut solver = Solver::try_new(args.hash)?;
    let limit = secs(args.time_limit.unwrap_or(DEFAULT_PROBLEM_SECS))?;
    let start = Instant::now();
    solver.set_deadline(Some(start + limit));
    let opts = SolveOptions { all_defences: args.all_defences, threats: !args.no_threats };
    eprintln!("solving {stip} (time limit {})", seconds_text(limit));
    let report = with_progress(start, limit, || solver.solve(&pos, stip, &opts)).map_err(|e| {
        anyhow::anyhow!(
            "{e} ({}) before the solution was complete; allow more with --time-limit SECONDS",
            seconds_text(limit)
        )
    })?;
    let seconds = start.elapsed().as_secs_f64();
    // Every reported solution is replayed with the core's rules before it is shown.
    bastion_solver::verify::report(&pos, stip, &report, args.all_defences)
        .map_err(|e| anyhow::anyhow!("internal error: a reported solution failed verification: {e}"))?;
    if args.json {
        #[derive(Serialize)]
        struct Out<'a> {
            #[serde(flatten)]
            report: &'a Report,
            seconds: f64,
            nps: f64,
        }
        let out = Out { report: &report, seconds, nps: report.nodes as f64 / seconds.max(1e-9) };
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        write!(std::io::stdout().lock(), "{}", report.to_text(&pos, args.all_defences, seconds))?;
    }
    Ok(())
}

/// `60 s`, `2.5 s`.
fn seconds_text(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// Runs `work`, printing a line on stderr every [`PROGRESS_EVERY`] until it returns,
/// so that a long solve shows that it is alive and how much of its time is gone.
fn with_progress<T>(start: Instant, limit: Duration, work: impl FnOnce() -> T) -> T {
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(PROGRESS_EVERY) {
                let elapsed = start.elapsed().as_secs();
                eprintln!("  still solving: {elapsed} s elapsed of {}", seconds_text(limit));
            }
        });
        let out = work();
        drop(done);
        out
    })
}

fn secs(t: f64) -> Result<Duration> {
    if !(t.is_finite() && t > 0.0) {
        bail!("--time-limit must be a positive number of seconds");
    }
    Ok(Duration::from_secs_f64(t))
}

/// How every entry of a `--epd` suite is solved: table size, time limit and whether the
/// shortest mate is proved (not with `--within`). `bastion cluster solve` gives these to every
/// rank.
pub fn suite_settings(args: &SolveArgs) -> Result<(usize, Duration, bool)> {
    Ok((args.hash, secs(args.time_limit.unwrap_or(DEFAULT_SUITE_SECS))?, !args.within))
}

/// The `--epd` suite's entries that the selection options choose, in file order, with the
/// file's name as the report gives it.
pub fn suite_entries(args: &SolveArgs) -> Result<(String, Vec<MateEntry>)> {
    let path = args.epd.clone().context("give the suite with --epd FILE")?;
    let text = bastion_core::io::read_to_string_bounded(std::path::Path::new(&path), bastion_core::io::TEXT_LIMIT)
        .map_err(bastion_core::io::BoundedReadError::into_io)
        .with_context(|| format!("cannot read {path}"))?;
    let entries = parse_suite(&text).with_context(|| format!("in {path}"))?;
    let selection = Selection {
        min_mate: args.min_mate,
        max_mate: args.max_mate.unwrap_or(60),
        mates_only: args.mates_only,
        per_length: args.per_length,
        skip: args.skip,
    };
    let selected: Vec<MateEntry> = selection.apply(&entries).into_iter().cloned().collect();
    if selected.is_empty() {
        bail!("no entries of {path} match the selection");
    }
    Ok((path, selected))
}

/// What a suite run prints: a CSV row, a progress line or (with `--json`) a counter per
/// entry as it is done, then the summary.
pub struct SuiteOutput {
    csv: bool,
    json: bool,
    skip: usize,
    total: usize,
    solved: usize,
}

impl SuiteOutput {
    /// The output of `args` for a run of `total` entries; prints the CSV header.
    pub fn start(args: &SolveArgs, total: usize) -> Result<SuiteOutput> {
        if args.csv {
            outln!("{CSV_HEADER}");
        }
        Ok(SuiteOutput { csv: args.csv, json: args.json, skip: args.skip, total, solved: 0 })
    }

    /// Prints the entry `done` of the run (from 1), in suite order.
    pub fn row(&mut self, row: &Row, done: usize) -> Result<()> {
        self.solved += usize::from(row.solved);
        if self.csv {
            outln!("{}", csv_row(row));
            std::io::stdout().flush().ok();
        } else if !self.json {
            outln!("{}", progress_line(row, done + self.skip, self.total + self.skip));
        } else {
            eprint!("\r[{}/{}] {} solved", done, self.total, self.solved);
        }
        Ok(())
    }

    /// Prints the summary of the rows (suite order) of suite `path` at `limit` per entry.
    pub fn finish(&self, path: String, limit: Duration, rows: Vec<Row>) -> Result<()> {
        if self.json {
            eprintln!();
        }
        let summary = SuiteSummary::new(path, limit.as_secs_f64(), rows);
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&summary)?);
        } else if !self.csv {
            write!(std::io::stdout().lock(), "{}", summary.to_text())?;
        }
        Ok(())
    }
}

fn run_suite(args: &SolveArgs) -> Result<()> {
    let (hash, limit, shortest) = suite_settings(args)?;
    let (path, selected) = suite_entries(args)?;
    let mut solver = Solver::try_new(hash)?;
    let mut rows: Vec<Row> = Vec::new();
    let mut output = SuiteOutput::start(args, selected.len())?;
    for (i, e) in selected.iter().enumerate() {
        let row = run_entry_with(&mut solver, e, limit, shortest);
        output.row(&row, i + 1)?;
        rows.push(row);
    }
    output.finish(path, limit, rows)
}
