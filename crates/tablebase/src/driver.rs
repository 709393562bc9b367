//! Building tables into a directory: sub-endings first, finished files
//! skipped, every file written atomically, so an interrupted run restarted
//! with the same arguments ends with byte-identical files.

use crate::error::TbError;
use crate::format::{file_name, write_table, TableFile};
use crate::gen::generate;
use crate::material::{dependency_order, Material};
use crate::table::{TableData, TableSet};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// What happened to one ending.
#[derive(Clone, Debug, Serialize)]
pub struct BuildRecord {
    /// The ending.
    pub ending: String,
    /// True if a complete, checksum-valid file was already there.
    pub skipped: bool,
    /// Wall time of generation (0 if skipped).
    pub seconds: f64,
    /// Indices per side.
    pub indices_per_side: u64,
    /// Longest distance to mate in plies.
    pub max_plies: u16,
    /// Size of the written file.
    pub file_bytes: u64,
    /// Working memory of the generator in bytes.
    pub work_bytes: u64,
    /// Peak resident memory of the process so far, in bytes (Linux only).
    pub peak_rss_bytes: Option<u64>,
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
    if !show {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(0);
    pb.set_style(
        ProgressStyle::with_template(
            "{prefix:>6} [{elapsed_precise}] {bar:30} {human_pos}/{human_len} ({per_sec}) {msg}",
        )
        .expect("valid template"),
    );
    pb.set_prefix(prefix.to_string());
    pb
}

/// Loads finished tables from `dir`, keeping small ones cached.
pub struct Loader<'a> {
    dir: &'a Path,
    cache: HashMap<Material, Arc<TableData>>,
}

impl<'a> Loader<'a> {
    /// A loader for `dir`.
    pub fn new(dir: &'a Path) -> Loader<'a> {
        Loader { dir, cache: HashMap::new() }
    }

    /// The decompressed table of `m` (must exist and be valid).
    pub fn load(&mut self, m: &Material) -> Result<Arc<TableData>, TbError> {
        if let Some(t) = self.cache.get(m) {
            return Ok(t.clone());
        }
        let path = self.dir.join(file_name(m));
        if !path.exists() {
            return Err(TbError::Missing(m.name()));
        }
        let t = Arc::new(TableFile::open(&path)?.load()?);
        if m.count() <= 4 {
            self.cache.insert(m.clone(), t.clone());
        }
        Ok(t)
    }

    /// A table set with `m`'s sub-tables.
    pub fn set_for(&mut self, m: &Material) -> Result<TableSet, TbError> {
        let mut set = TableSet::new();
        for c in m.children() {
            set.insert(self.load(&c)?);
        }
        Ok(set)
    }
}

/// Generates `targets` and their sub-endings into `dir` (which must exist).
/// Endings whose file is present and passes its checksums are skipped.
/// `on_done` is called after each ending.
pub fn build(
    targets: &[Material],
    dir: &Path,
    show_progress: bool,
    mut on_done: impl FnMut(&BuildRecord),
) -> Result<Vec<BuildRecord>, TbError> {
    let mut loader = Loader::new(dir);
    let mut out = Vec::new();
    for m in dependency_order(targets) {
        let path = dir.join(file_name(&m));
        if path.exists() {
            match TableFile::open(&path) {
                Ok(f) => {
                    let rec = BuildRecord {
                        ending: m.name(),
                        skipped: true,
                        seconds: 0.0,
                        indices_per_side: f.header().size,
                        max_plies: f.header().max_plies,
                        file_bytes: f.file_len(),
                        work_bytes: 0,
                        peak_rss_bytes: peak_rss_bytes(),
                    };
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
        let subs = loader.set_for(&m)?;
        let pb = progress_bar(show_progress, &m.name());
        let start = Instant::now();
        let (table, report) = generate(&m, &subs, &pb);
        let seconds = start.elapsed().as_secs_f64();
        pb.finish_and_clear();
        drop(subs);
        let written = write_table(dir, &table)?;
        let file_bytes = std::fs::metadata(&written).map(|md| md.len()).unwrap_or(0);
        let rec = BuildRecord {
            ending: m.name(),
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

/// Worker threads of the current pool.
pub fn current_threads() -> usize {
    rayon::current_num_threads()
}
