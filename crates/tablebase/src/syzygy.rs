//! Probing standard Syzygy WDL/DTZ files through `shakmaty-syzygy`.
//!
//! Our [`Position`] is handed over as FEN (the two libraries share no types);
//! the conversion costs a few microseconds, fine at the tablebase frontier of
//! a search where a probe is rare compared to node counts.

use bastion_core::tablebase::{TablebaseProbe, Wdl};
use bastion_core::{Move, Position};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use shakmaty_syzygy::{Tablebase, Wdl as SWdl};
use std::path::Path;

/// Errors of the Syzygy prober.
#[derive(Debug, thiserror::Error)]
pub enum SyzygyError {
    /// The directory could not be read.
    #[error("syzygy directory {0}: {1}")]
    Io(String, std::io::Error),
    /// The position could not be converted.
    #[error("position not convertible for syzygy: {0}")]
    Position(String),
    /// The probe failed (missing table, too many pieces, castling rights, corrupt file).
    #[error("syzygy probe: {0}")]
    Probe(String),
}

/// Probes Syzygy tables in one or more directories.
pub struct SyzygyProber {
    tb: Tablebase<Chess>,
}

impl SyzygyProber {
    /// Adds every Syzygy file in `path`; returns the prober and the number of files found.
    pub fn open(path: &Path) -> Result<(SyzygyProber, usize), SyzygyError> {
        let mut tb = Tablebase::new();
        let n = tb.add_directory(path).map_err(|e| SyzygyError::Io(path.display().to_string(), e))?;
        Ok((SyzygyProber { tb }, n))
    }

    /// The largest number of men covered.
    pub fn max_pieces(&self) -> usize {
        self.tb.max_pieces()
    }

    fn convert(pos: &Position) -> Result<Chess, SyzygyError> {
        let fen: Fen = pos.fen().parse().map_err(|e| SyzygyError::Position(format!("{e}")))?;
        fen.into_position(CastlingMode::Standard).map_err(|e| SyzygyError::Position(format!("{e}")))
    }

    /// WDL after a zeroing move (the value of the position itself when its
    /// halfmove clock is 0).
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, SyzygyError> {
        let p = Self::convert(pos)?;
        let w = self.tb.probe_wdl_after_zeroing(&p).map_err(|e| SyzygyError::Probe(format!("{e}")))?;
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
        let d = self.tb.probe_dtz(&p).map_err(|e| SyzygyError::Probe(format!("{e}")))?;
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
        self.probe_wdl(pos).ok()
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
        let dir = std::env::temp_dir().join(format!("bastion-syzygy-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (p, n) = SyzygyProber::open(&dir).unwrap();
        assert_eq!(n, 0);
        let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R w - - 0 1").unwrap();
        assert!(p.probe_wdl(&pos).is_err());
        assert!(SyzygyProber::open(&dir.join("missing")).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
