//! [`Tablebases`]: the probing API for engines and tools.
//!
//! Tables are found by file name in the given directories and opened lazily
//! on first use (the whole compressed file is read and both checksums are
//! checked then); decompressed blocks are cached per table. A corrupt table
//! makes probes of its ending fail with [`TbError::Corrupt`] (the `try_`
//! methods) or answer `None` (the plain ones): it is never probed silently.
//! All methods take `&self`; the type is `Send + Sync`.
//!
//! A [`Tablebases`] reads tables of one metric: [`Tablebases::open`] the DTM
//! tables (`KRKN.btb`), [`Tablebases::open_metric`] those of a metric
//! (`KRKN.dtc.btb` for DTC). A file whose header names another metric is
//! refused when opened, and the [`TablebaseProbe`] of DTC tables gives no
//! distance to mate, so the engine never takes a distance to conversion for one.

use crate::error::TbError;
use crate::format::TableFile;
use crate::index::Indexer;
use crate::material::Material;
use crate::metric::Metric;
use crate::table::{TableSet, ValueSource};
use crate::value::{Dtm, Wdl};
use bastion_core::tablebase::TablebaseProbe;
use bastion_core::{Color, Move, Position};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A table file opened on first use.
struct LazyTable {
    path: PathBuf,
    material: Material,
    /// The indexer `tb gen` writes, answering for a file that cannot be read (whose
    /// probes then fail); a readable file brings its own (older files are unfolded).
    fallback: Indexer,
    metric: Metric,
    file: OnceLock<Result<TableFile, TbError>>,
}

impl LazyTable {
    fn get(&self) -> Result<&TableFile, TbError> {
        self.file.get_or_init(|| TableFile::open_metric(&self.path, self.metric)).as_ref().map_err(|e| match e {
            TbError::WrongMetric { path, found, expected } => {
                TbError::WrongMetric { path: path.clone(), found: *found, expected: *expected }
            }
            other => TbError::Corrupt { path: self.path.clone(), reason: other.to_string() },
        })
    }
}

impl ValueSource for LazyTable {
    /// Opens the file: its header says how it is indexed.
    fn indexer(&self) -> &Indexer {
        self.get().map_or(&self.fallback, |f| f.indexer())
    }
    fn material(&self) -> &Material {
        &self.material
    }
    fn code(&self, side: Color, idx: u64) -> Result<u16, TbError> {
        self.get()?.code(side, idx)
    }
    fn metric(&self) -> Metric {
        self.metric
    }
}

/// A collection of tables of one metric (DTM unless opened with
/// [`Tablebases::open_metric`]) from one or more directories.
pub struct Tablebases {
    set: TableSet,
    endings: Vec<(Material, PathBuf)>,
}

/// A legal move with the value it leads to (for the side playing it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Value for the side that plays it (already negated and one ply added).
    pub value: Dtm,
}

impl Tablebases {
    /// Indexes the DTM tables (`<ENDING>.btb`) of `dirs` (later directories do
    /// not replace endings found earlier). Files are checked when first probed.
    pub fn open<P: AsRef<Path>>(dirs: &[P]) -> Result<Tablebases, TbError> {
        Tablebases::open_metric(dirs, Metric::Dtm)
    }

    /// Indexes the tables of `metric` (`<ENDING>` + [`Metric::file_suffix`]) of `dirs`.
    pub fn open_metric<P: AsRef<Path>>(dirs: &[P], metric: Metric) -> Result<Tablebases, TbError> {
        let mut set = TableSet::with_metric(metric);
        let mut endings: Vec<(Material, PathBuf)> = Vec::new();
        for dir in dirs {
            let dir = dir.as_ref();
            for path in sorted_dir(dir)? {
                let Some(name) = path.file_name().and_then(|s| s.to_str()) else { continue };
                let Some(m) = metric.ending_of_file_name(name) else { continue };
                if endings.iter().any(|(e, _)| *e == m) {
                    continue;
                }
                let fallback = Indexer::new(&m);
                let table =
                    LazyTable { path: path.clone(), material: m.clone(), fallback, metric, file: OnceLock::new() };
                set.insert(Arc::new(table));
                endings.push((m, path));
            }
        }
        Ok(Tablebases { set, endings })
    }

    /// What the tables' distances count.
    pub fn metric(&self) -> Metric {
        self.set.metric()
    }

    /// The endings available, with their files.
    pub fn endings(&self) -> &[(Material, PathBuf)] {
        &self.endings
    }

    /// The largest number of men of any ending available.
    pub fn max_men(&self) -> usize {
        self.endings.iter().map(|(m, _)| m.count()).max().unwrap_or(0)
    }

    /// Checks every table file now (checksums), returning the first error.
    pub fn check_all(&self) -> Result<(), TbError> {
        for (m, _) in &self.endings {
            if let Some(t) = self.set.get(m) {
                t.code(Color::White, 0)?;
            }
        }
        Ok(())
    }

    /// Exact value of a position (distance in the tables' metric: to mate for the
    /// DTM tables), `Ok(None)` if its ending is not available.
    pub fn try_probe_dtm(&self, pos: &Position) -> Result<Option<Dtm>, TbError> {
        self.set.probe(pos)
    }

    /// Exact value (as [`Tablebases::try_probe_dtm`]), `None` if unavailable or
    /// the table is corrupt.
    pub fn probe_dtm(&self, pos: &Position) -> Option<Dtm> {
        self.try_probe_dtm(pos).ok().flatten()
    }

    /// Win/draw/loss, `None` if unavailable or the table is corrupt.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.probe_dtm(pos).map(Dtm::wdl)
    }

    /// Every legal move with its value, best first; `Ok(None)` if some
    /// successor's ending is unavailable.
    pub fn try_move_values(&self, pos: &Position) -> Result<Option<Vec<MoveValue>>, TbError> {
        let mut out = Vec::new();
        let metric = self.metric();
        for &mv in pos.legal_moves().iter() {
            let Some(v) = self.set.probe(&pos.play(mv))? else { return Ok(None) };
            out.push(MoveValue { mv, value: metric.move_value(pos, mv, v) });
        }
        out.sort_by(|a, b| b.value.better(a.value));
        Ok(Some(out))
    }

    /// The moves that keep the position's value (all moves of equal best value).
    pub fn best_moves(&self, pos: &Position) -> Option<Vec<MoveValue>> {
        let all = self.try_move_values(pos).ok().flatten()?;
        let best = all.first()?.value;
        Some(all.into_iter().filter(|m| m.value == best).collect())
    }

    /// An optimal line from `pos`: to mate if won or lost (for DTC tables: to
    /// the conversion, the capture or promotion included; for DTZ tables: to the
    /// capture or pawn move), at most `max_plies`
    /// long (a drawn position gives an empty line).
    pub fn try_line(&self, pos: &Position, max_plies: usize) -> Result<Vec<Move>, TbError> {
        let mut line = Vec::new();
        let mut p = pos.clone();
        while line.len() < max_plies {
            let Some(values) = self.try_move_values(&p)? else { break };
            let Some(best) = values.first() else { break };
            if best.value == Dtm::Draw {
                break;
            }
            line.push(best.mv);
            if self.metric() != Metric::Dtm && self.metric().is_exit(&p, best.mv) {
                break;
            }
            p = p.play(best.mv);
        }
        Ok(line)
    }
}

/// Bastion's tables behind the shared prober trait: exact distances to mate,
/// values that ignore the 50-move rule (never cursed or blessed). Tables of
/// another metric (DTC, DTZ) give their win/draw/loss but never a distance to
/// mate: the search must not take a distance to conversion for one. DTZ tables
/// answer [`TablebaseProbe::probe_dtz`].
impl TablebaseProbe for Tablebases {
    fn max_pieces(&self) -> u32 {
        self.max_men() as u32
    }

    fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        Tablebases::probe_wdl(self, pos)
    }

    fn probe_dtm(&self, pos: &Position) -> Option<i32> {
        if self.metric() != Metric::Dtm {
            return None;
        }
        Tablebases::probe_dtm(self, pos).map(Dtm::signed_plies)
    }

    /// From DTZ tables only, in Syzygy's count ([`Dtm::signed_dtz`]).
    fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        if self.metric() != Metric::Dtz {
            return None;
        }
        Tablebases::probe_dtm(self, pos).map(Dtm::signed_dtz)
    }

    fn probe_root(&self, pos: &Position) -> Option<Vec<(Move, Wdl, Option<i32>)>> {
        let values = self.try_move_values(pos).ok().flatten()?;
        let dtm = self.metric() == Metric::Dtm;
        Some(
            values
                .into_iter()
                .map(|mv| (mv.mv, mv.value.wdl(), mv.value.plies().filter(|_| dtm).map(i32::from)))
                .collect(),
        )
    }
}

/// The paths in `dir`, sorted, so that which file wins among equals does not depend on
/// the order the file system lists them in.
pub(crate) fn sorted_dir(dir: &Path) -> Result<Vec<PathBuf>, TbError> {
    let rd = std::fs::read_dir(dir).map_err(|source| TbError::Io { path: dir.to_path_buf(), error: source })?;
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn tablebases_are_send_and_sync() {
        assert_send_sync::<Tablebases>();
    }
}
