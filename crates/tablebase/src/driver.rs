//! Building tables into a directory: sub-endings first, finished files
//! skipped, every file written atomically, so an interrupted run restarted
//! with the same arguments ends with byte-identical files. A long generation
//! leaves checkpoints between its levels ([`CheckpointPlan`]), and a rerun
//! goes on from the latest instead of starting the table again.

use crate::error::TbError;
use crate::exchange::{SliceLimits, SliceTable, Solo};
use crate::format::{write_table, TableFile};
use crate::gen::{generate_checkpointed, CheckpointPlan, GenReport};
use crate::material::{dependency_order, Material};
use crate::metric::Metric;
use crate::table::{TableData, TableSet};
use indicatif::ProgressBar;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a generation leaves a checkpoint unless told otherwise: a five-man table's
/// checkpoint is up to a few gigabytes, written in seconds.
pub const DEFAULT_CHECKPOINT_EVERY: Duration = Duration::from_secs(300);

/// What happened to one ending.
#[derive(Clone, Debug, Serialize)]
pub struct BuildRecord {
    /// The ending.
    pub ending: String,
    /// What the table's distances count.
    pub metric: Metric,
    /// True if a complete, checksum-valid file was already there.
    pub skipped: bool,
    /// Wall time of generation (0 if skipped).
    pub seconds: f64,
    /// Indices per side.
    pub indices_per_side: u64,
    /// Longest distance (to mate or to conversion) in plies.
    pub max_plies: u16,
    /// Size of the written file.
    pub file_bytes: u64,
    /// Working memory of the generator in bytes.
    pub work_bytes: u64,
    /// Peak resident memory of the process so far, in bytes (Linux only).
    pub peak_rss_bytes: Option<u64>,
}

impl BuildRecord {
    /// The record of an ending whose complete file `f` was already there.
    pub fn skipped(m: &Material, metric: Metric, f: &TableFile) -> BuildRecord {
        BuildRecord {
            ending: m.name(),
            metric,
            skipped: true,
            seconds: 0.0,
            indices_per_side: f.header().size,
            max_plies: f.header().max_plies,
            file_bytes: f.file_len(),
            work_bytes: 0,
            peak_rss_bytes: peak_rss_bytes(),
        }
    }
}

/// Bytes of the generator's working arrays for a whole table of `m` (value, with the best
/// exit while undecided, and move counter: 3 bytes per index and side to move), the bulk of
/// what generating it needs.
pub fn working_bytes(m: &Material) -> u64 {
    2 * crate::gen::WORKING_BYTES_PER_INDEX * crate::index::Indexer::new(m).size()
}

/// Memory the OS can give this process now without swapping (Linux `MemAvailable`), if it tells.
pub fn available_memory_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Peak resident set size of this process (VmHWM), if the OS tells.
pub fn peak_rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A progress bar in this crate's style (hidden if `show` is false).
pub fn progress_bar(show: bool, prefix: &str) -> ProgressBar {
    let pb = bastion_progress::bar(
        show,
        0,
        "{prefix:>6} [{elapsed_precise}] {bar:30} {human_pos}/{human_len} ({per_sec}) {msg}",
    );
    pb.set_prefix(prefix.to_string());
    pb
}

/// Loads finished tables of one metric from `dir`, keeping small ones cached.
pub struct Loader<'a> {
    dir: &'a Path,
    metric: Metric,
    cache: HashMap<Material, Arc<TableData>>,
}

impl<'a> Loader<'a> {
    /// A loader of the DTM tables of `dir`.
    pub fn new(dir: &'a Path) -> Loader<'a> {
        Loader::with_metric(dir, Metric::Dtm)
    }

    /// A loader of the tables of `metric` in `dir` (a file of another metric is refused).
    pub fn with_metric(dir: &'a Path, metric: Metric) -> Loader<'a> {
        Loader { dir, metric, cache: HashMap::new() }
    }

    /// The metric of the tables this loader reads.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The decompressed table of `m` (must exist and be valid).
    pub fn load(&mut self, m: &Material) -> Result<Arc<TableData>, TbError> {
        if let Some(t) = self.cache.get(m) {
            return Ok(t.clone());
        }
        let path = self.dir.join(self.metric.file_name(m));
        if !path.exists() {
            let name = if self.metric == Metric::Dtm { m.name() } else { format!("{} ({})", m.name(), self.metric) };
            return Err(TbError::Missing(name));
        }
        let t = Arc::new(TableFile::open_metric(&path, self.metric)?.load()?);
        if m.count() <= 4 {
            self.cache.insert(m.clone(), t.clone());
        }
        Ok(t)
    }

    /// The loader of the tables a generation in `generated` takes its exit values from, in
    /// `dir`: DTM tables for DTZ (its own ending's included), tables of its own metric else.
    pub fn for_exits(dir: &'a Path, generated: Metric) -> Loader<'a> {
        Loader::with_metric(dir, if generated == Metric::Dtz { Metric::Dtm } else { generated })
    }

    /// The tables a generation of `m` in `generated` values its exits from: the sub-tables,
    /// and for DTZ the ending's own DTM table (its pawn moves stay in the ending).
    pub fn exit_tables(&mut self, m: &Material, generated: Metric) -> Result<Vec<Arc<TableData>>, TbError> {
        let mut needed = m.children();
        if generated == Metric::Dtz {
            needed.push(m.clone());
        }
        needed.iter().map(|n| self.load(n)).collect()
    }

    /// A table set with `m`'s sub-tables.
    pub fn set_for(&mut self, m: &Material) -> Result<TableSet, TbError> {
        let mut set = TableSet::with_metric(self.metric);
        for c in m.children() {
            set.insert(self.load(&c)?);
        }
        Ok(set)
    }
}

/// Generates the DTM tables of `targets` and their sub-endings into `dir`
/// (which must exist). Endings whose file is present and passes its checksums
/// are skipped. `on_done` is called after each ending.
pub fn build(
    targets: &[Material],
    dir: &Path,
    show_progress: bool,
    on_done: impl FnMut(&BuildRecord),
) -> Result<Vec<BuildRecord>, TbError> {
    build_metric(targets, dir, Metric::Dtm, show_progress, on_done)
}

/// As [`build`], in `metric`: every sub-ending gets a table of the same metric
/// (a DTC table takes only the win/draw/loss of its sub-tables, so theirs are
/// as good as DTM ones, and the directory stays self-contained for probing).
///
/// DTZ is built in two passes: the DTM tables of `targets` and their sub-endings
/// first (finished ones are read, not regenerated; their records come first),
/// then each DTZ table from the DTM tables of its ending and sub-endings (a pawn
/// move's value is the win/draw/loss of the same ending after it).
pub fn build_metric(
    targets: &[Material],
    dir: &Path,
    metric: Metric,
    show_progress: bool,
    on_done: impl FnMut(&BuildRecord),
) -> Result<Vec<BuildRecord>, TbError> {
    build_metric_with(targets, dir, metric, show_progress, DEFAULT_CHECKPOINT_EVERY, on_done)
}

/// As [`build_metric`], with a checkpoint at most every `checkpoint_every` of a
/// generation (in `dir`, removed once the table is written).
pub fn build_metric_with(
    targets: &[Material],
    dir: &Path,
    metric: Metric,
    show_progress: bool,
    checkpoint_every: Duration,
    mut on_done: impl FnMut(&BuildRecord),
) -> Result<Vec<BuildRecord>, TbError> {
    let mut out = Vec::new();
    if metric == Metric::Dtz {
        out = build_one_metric(targets, dir, Metric::Dtm, show_progress, checkpoint_every, &mut on_done)?;
    }
    out.extend(build_one_metric(targets, dir, metric, show_progress, checkpoint_every, &mut on_done)?);
    Ok(out)
}

/// One pass of [`build_metric`]: the tables of `metric` (a DTZ pass reads the
/// DTM tables the first pass made).
fn build_one_metric(
    targets: &[Material],
    dir: &Path,
    metric: Metric,
    show_progress: bool,
    checkpoint_every: Duration,
    on_done: &mut dyn FnMut(&BuildRecord),
) -> Result<Vec<BuildRecord>, TbError> {
    let mut loader = Loader::for_exits(dir, metric);
    let mut out = Vec::new();
    for m in dependency_order(targets) {
        let path = dir.join(metric.file_name(&m));
        if path.exists() {
            match TableFile::open_metric(&path, metric) {
                Ok(f) => {
                    let rec = BuildRecord::skipped(&m, metric, &f);
                    on_done(&rec);
                    out.push(rec);
                    continue;
                }
                Err(e) => {
                    if show_progress {
                        eprintln!("{e}; regenerating");
                    }
                }
            }
        }
        let mut subs = TableSet::with_metric(loader.metric());
        for t in loader.exit_tables(&m, metric)? {
            subs.insert(t);
        }
        let pb = progress_bar(show_progress, &m.name());
        let start = Instant::now();
        let plan = CheckpointPlan { dir: dir.to_path_buf(), stem: metric.file_name(&m), every: checkpoint_every };
        let outcome = generate_checkpointed(&m, metric, &subs, &pb, &mut Solo, SliceLimits::default(), Some(&plan))
            .expect("one slice exchanges nothing");
        if let (Some(level), true) = (outcome.resumed_at, show_progress) {
            eprintln!("{}: resumed from the checkpoint at level {level}", m.name());
        }
        let report = GenReport::of(&outcome);
        let Some(SliceTable::Values(table)) = outcome.table else {
            unreachable!("the only slice is slice 0 and keeps its values")
        };
        let seconds = start.elapsed().as_secs_f64();
        pb.finish_and_clear();
        drop(subs);
        let written = write_table(dir, &table)?;
        plan.remove_all();
        let file_bytes = std::fs::metadata(&written).map(|md| md.len()).unwrap_or(0);
        let rec = BuildRecord {
            ending: m.name(),
            metric,
            skipped: false,
            seconds,
            indices_per_side: report.size,
            max_plies: table.max_plies(),
            file_bytes,
            work_bytes: report.work_bytes,
            peak_rss_bytes: peak_rss_bytes(),
        };
        on_done(&rec);
        out.push(rec);
    }
    Ok(out)
}

/// Runs `f` on a pool of `threads` workers (all cores if `None`); rayon work
/// inside (generation, verification, statistics) uses that pool.
pub fn with_threads<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> Result<R, String> {
    let n = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if n == 0 {
        return Err("the number of threads must be at least 1".into());
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| e.to_string())?;
    Ok(pool.install(f))
}

/// Makes rayon's global pool `threads` workers (all cores if `None`) for the rest of the
/// process: for callers whose main thread must stay the one that calls into the outside (an
/// MPI rank), where [`with_threads`] would run the work on a pool thread. Returns the count.
pub fn use_threads_globally(threads: Option<usize>) -> Result<usize, String> {
    let n = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if n == 0 {
        return Err("the number of threads must be at least 1".into());
    }
    rayon::ThreadPoolBuilder::new().num_threads(n).build_global().map_err(|e| e.to_string())?;
    Ok(n)
}

/// Worker threads of the current pool.
pub fn current_threads() -> usize {
    rayon::current_num_threads()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn working_memory_of_six_man_tables() {
        let gb = |name: &str| working_bytes(&Material::parse(name).unwrap()) as f64 / 1e9;
        assert!((gb("KRRRKR") - 7.39).abs() < 0.01);
        assert!((gb("KRRKNN") - 11.27).abs() < 0.01);
        assert!((gb("KQRKQR") - 46.51).abs() < 0.01);
        assert!(available_memory_bytes().is_none_or(|b| b > 0));
    }
}
