//! Probing standard Syzygy WDL/DTZ files through `shakmaty-syzygy`.
//!
//! Our [`Position`] is handed over as FEN (the two libraries share no types);
//! the conversion costs a few microseconds, fine at the tablebase frontier of
//! a search where a probe is rare compared to node counts.
//!
//! Damaged files: a file whose size cannot be a table's, or a directory with a
//! table's name, is refused when the directory is opened; a bad header or a body cut
//! short is a probe error naming the table. The format has no per-block checksum,
//! so a changed byte inside a table's data can go unnoticed by a probe (and the
//! probes never panic on it); [`verify::verify_directory`] finds it by recomputing
//! the checksum each file ends with.

pub mod checksum;
pub mod positions;
pub mod report;
pub mod verify;

use bastion_core::tablebase::{TablebaseProbe, Wdl};
use bastion_core::{Move, Position};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use shakmaty_syzygy::{ProbeError, SyzygyError as ProbeFailure, Tablebase, Wdl as SWdl};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Errors of the Syzygy prober.
#[derive(Debug, thiserror::Error)]
pub enum SyzygyError {
    /// The directory could not be read.
    #[error("syzygy directory {0}: {1}")]
    Io(String, std::io::Error),
    /// A file with a table's name cannot be a table.
    #[error("syzygy table {}: {reason}", path.display())]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The position could not be converted.
    #[error("position not convertible for syzygy: {0}")]
    Position(String),
    /// The probe failed (missing table, too many pieces, castling rights).
    #[error("syzygy probe: {0}")]
    Probe(String),
    /// A table file is damaged: bad header, cut short, or data that does not decode.
    #[error("syzygy probe: {0}")]
    Damaged(String),
}

fn metric_name(metric: shakmaty_syzygy::Metric) -> &'static str {
    match metric {
        shakmaty_syzygy::Metric::Wdl => "WDL",
        shakmaty_syzygy::Metric::Dtz => "DTZ",
    }
}

/// A clear message for a failed probe; shakmaty's own text of a corrupt table
/// carries a backtrace, which says nothing to a user.
fn probe_error(e: ProbeFailure) -> SyzygyError {
    match e {
        ProbeFailure::Castling => SyzygyError::Probe("Syzygy tables hold no positions with castling rights".into()),
        ProbeFailure::TooManyPieces => SyzygyError::Probe("more men than any Syzygy table in the directory".into()),
        ProbeFailure::MissingTable { metric, material } => SyzygyError::Probe(format!(
            "missing {} table {material} (the position's own, or one its captures or promotions lead to)",
            metric_name(metric)
        )),
        ProbeFailure::ProbeFailed { metric, material, error } => {
            let what = match *error {
                ProbeError::Read { error } => format!("cannot be read: {error}"),
                ProbeError::Magic { magic } => {
                    format!("has wrong magic bytes {magic:02x?}: not a Syzygy table, or damaged")
                }
                ProbeError::CorruptedTable { .. } => "is corrupt or truncated".into(),
            };
            SyzygyError::Damaged(format!("{} table {material} {what}", metric_name(metric)))
        }
    }
}

/// Probes Syzygy tables in one or more directories.
pub struct SyzygyProber {
    tb: Tablebase<Chess>,
    /// The first damaged-table error met behind [`TablebaseProbe`], which can only
    /// answer "not covered"; kept so that it is reported once, not lost.
    damage: std::sync::OnceLock<String>,
}

impl SyzygyProber {
    /// Adds every Syzygy file in `path`; returns the prober and the number of files found.
    /// A file with a table's name whose size cannot be a table's, or a directory
    /// with such a name, is an error naming it.
    pub fn open(path: &Path) -> Result<(SyzygyProber, usize), SyzygyError> {
        let io = |e| SyzygyError::Io(path.display().to_string(), e);
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(path).map_err(io)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>().map_err(io)?;
        entries.sort();
        let mut tb = Tablebase::new();
        let mut n = 0;
        for file in entries {
            let table_name = matches!(file.extension().and_then(|e| e.to_str()), Some("rtbw" | "rtbz"));
            match tb.add_file(&file) {
                Ok(()) => n += 1,
                Err(_) if table_name && !file.is_file() => {
                    return Err(SyzygyError::BadFile { path: file, reason: "not a regular file".into() })
                }
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {}
                Err(e) => {
                    let len = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
                    let reason = if len % 64 != 16 {
                        format!("size {len} bytes is not a table's (64 k + 16): truncated or damaged")
                    } else {
                        e.to_string()
                    };
                    return Err(SyzygyError::BadFile { path: file, reason });
                }
            }
        }
        Ok((SyzygyProber { tb, damage: std::sync::OnceLock::new() }, n))
    }

    /// The first damaged table met by probes through [`TablebaseProbe`] (which
    /// answer `None` for it), if any.
    pub fn damage(&self) -> Option<&str> {
        self.damage.get().map(String::as_str)
    }

    /// A probe's answer behind [`TablebaseProbe`], which can only say "not covered":
    /// the first damaged table met is kept and reported once.
    fn covered<T>(&self, result: Result<T, SyzygyError>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(SyzygyError::Damaged(e)) => {
                if self.damage.set(e.clone()).is_ok() {
                    eprintln!("warning: {e}; positions that need it are treated as not in the tables");
                }
                None
            }
            Err(_) => None,
        }
    }

    /// The largest number of men covered.
    pub fn max_pieces(&self) -> usize {
        self.tb.max_pieces()
    }

    /// Runs a probe; a panic inside the reader (damaged data it did not expect)
    /// becomes an error instead of taking the caller down.
    fn guarded<T>(probe: impl FnOnce() -> Result<T, ProbeFailure>) -> Result<T, SyzygyError> {
        match catch_unwind(AssertUnwindSafe(probe)) {
            Ok(result) => result.map_err(probe_error),
            Err(_) => Err(SyzygyError::Damaged("the table reader failed on damaged data".into())),
        }
    }

    fn convert(pos: &Position) -> Result<Chess, SyzygyError> {
        let fen: Fen = pos.fen().parse().map_err(|e| SyzygyError::Position(format!("{e}")))?;
        fen.into_position(CastlingMode::Standard).map_err(|e| SyzygyError::Position(format!("{e}")))
    }

    /// WDL after a zeroing move (the value of the position itself when its
    /// halfmove clock is 0).
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, SyzygyError> {
        let p = Self::convert(pos)?;
        let w = Self::guarded(|| self.tb.probe_wdl_after_zeroing(&p))?;
        Ok(match w {
            SWdl::Loss => Wdl::Loss,
            SWdl::BlessedLoss => Wdl::BlessedLoss,
            SWdl::Draw => Wdl::Draw,
            SWdl::CursedWin => Wdl::CursedWin,
            SWdl::Win => Wdl::Win,
        })
    }

    /// Distance to zeroing (plies, signed: positive when the side to move wins);
    /// `rounded` is true where Syzygy stores it rounded (may be off by one).
    pub fn probe_dtz(&self, pos: &Position) -> Result<(i32, bool), SyzygyError> {
        let p = Self::convert(pos)?;
        let d = Self::guarded(|| self.tb.probe_dtz(&p))?;
        Ok(match d {
            shakmaty_syzygy::MaybeRounded::Rounded(v) => (v.0, true),
            shakmaty_syzygy::MaybeRounded::Precise(v) => (v.0, false),
        })
    }
}

/// Syzygy WDL behind the shared prober trait; positions with more men than the
/// tables hold, or that the probe cannot convert, are not covered.
impl TablebaseProbe for SyzygyProber {
    fn max_pieces(&self) -> u32 {
        self.max_pieces() as u32
    }

    fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if pos.occupied().count() as usize > self.max_pieces() {
            return None;
        }
        self.covered(self.probe_wdl(pos))
    }

    fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        if pos.occupied().count() as usize > self.max_pieces() {
            return None;
        }
        self.covered(self.probe_dtz(pos)).map(|(dtz, _rounded)| dtz)
    }

    fn probe_root(&self, pos: &Position) -> Option<Vec<(Move, Wdl, Option<i32>)>> {
        root_values_after_zeroing(pos, |child| TablebaseProbe::probe_wdl(self, child))
    }
}

/// Per-move values at the root from the WDL of each child (`child_wdl`), as
/// [`TablebaseProbe::probe_root`] gives them. WDL after a zeroing move is exact only
/// where the child's halfmove clock is 0, so any other move makes the answer `None`.
pub(crate) fn root_values_after_zeroing(
    pos: &Position,
    child_wdl: impl Fn(&Position) -> Option<Wdl>,
) -> Option<Vec<(Move, Wdl, Option<i32>)>> {
    let mut out = Vec::new();
    for m in pos.legal_moves().iter().copied() {
        let child = pos.play(m);
        if child.is_checkmate() {
            out.push((m, Wdl::Win, Some(1)));
            continue;
        }
        if child.halfmove_clock() != 0 {
            return None;
        }
        out.push((m, child_wdl(&child)?.flip(), None));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_directory_gives_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let (p, n) = SyzygyProber::open(dir.path()).unwrap();
        assert_eq!(n, 0);
        let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R w - - 0 1").unwrap();
        assert!(p.probe_wdl(&pos).is_err());
        assert_eq!(TablebaseProbe::probe_dtz(&p, &pos), None);
        assert!(SyzygyProber::open(&dir.path().join("missing")).is_err());
    }
}
