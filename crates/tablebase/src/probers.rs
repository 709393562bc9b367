//! [`Probers`]: Bastion's DTM tables and WDL bitbases, and Syzygy WDL tables,
//! behind one [`TablebaseProbe`], as the engine (options `BastionTBPath`,
//! `SyzygyPath`) and the match referee (`--tb-dir`, `--syzygy`) use them.
//!
//! Bastion's directories give three kinds of Bastion file: `*.btb` DTM tables,
//! `*.bwdl` bitbases and `*.dtz.btb` DTZ tables. A WDL probe asks the bitbases
//! first (one memory load), then the DTM tables (a block from a cache,
//! decompressed on a miss), then Syzygy; the DTM tables alone give exact
//! distances to mate. A DTZ probe asks Bastion's DTZ tables, then Syzygy's: with
//! DTZ tables in a Bastion directory the engine ranks root moves by distance to
//! zeroing as it does with Syzygy's, and without them nothing changes.

use crate::bitbase::Bitbases;
use crate::error::TbError;
use crate::metric::Metric;
use crate::on_demand::OnDemand;
use crate::probe::Tablebases;
use crate::syzygy::{root_values_after_zeroing, SyzygyError, SyzygyProber};
use bastion_core::tablebase::{TablebaseProbe, Wdl};
use bastion_core::{Move, Position};
use std::path::Path;
use std::sync::Arc;

/// Why a table directory could not be used. The cause is part of the message,
/// not a separate error source, so error chains do not print it twice.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The DTM directories could not be read.
    #[error("cannot open Bastion tables: {0}")]
    Dtm(TbError),
    /// The DTM directories hold no `*.btb`, `*.bwdl` or `*.dtz.btb` file.
    #[error("no Bastion tables (*.btb, *.dtz.btb) or bitbases (*.bwdl) found in {0}")]
    NoDtm(String),
    /// The Syzygy directory could not be read.
    #[error("cannot open Syzygy tables: {0}")]
    Syzygy(SyzygyError),
    /// The Syzygy directory holds no Syzygy file.
    #[error("no Syzygy tables found in {0}")]
    NoSyzygy(String),
}

/// DTM tables, bitbases, Syzygy tables, or any of them together, probed as one
/// tablebase. Cheap to clone.
#[derive(Clone, Default)]
pub struct Probers {
    dtm: Option<Arc<Tablebases>>,
    bitbases: Option<Arc<Bitbases>>,
    dtz: Option<Arc<Tablebases>>,
    syzygy: Option<Arc<SyzygyProber>>,
    on_demand: Option<Arc<OnDemand>>,
}

impl Probers {
    /// Opens the DTM tables and bitbases of `dtm_dirs` (none when empty) and the
    /// Syzygy tables of `syzygy_dir`; a directory given without tables is an error.
    pub fn open<P: AsRef<Path>>(dtm_dirs: &[P], syzygy_dir: Option<&Path>) -> Result<Probers, OpenError> {
        let mut probers = Probers::default();
        probers.set_dtm(dtm_dirs)?;
        probers.set_syzygy(syzygy_dir)?;
        Ok(probers)
    }

    /// Replaces Bastion's tables with those of `dirs` (none when empty): the DTM
    /// tables (`*.btb`), the bitbases (`*.bwdl`, mapped and checked now) and the
    /// DTZ tables (`*.dtz.btb`). On error the prober is left without any.
    pub fn set_dtm<P: AsRef<Path>>(&mut self, dirs: &[P]) -> Result<(), OpenError> {
        self.dtm = None;
        self.bitbases = None;
        self.dtz = None;
        if dirs.is_empty() {
            return Ok(());
        }
        let tables = Tablebases::open(dirs).map_err(OpenError::Dtm)?;
        let bitbases = Bitbases::open_dirs(dirs).map_err(OpenError::Dtm)?;
        let dtz = Tablebases::open_metric(dirs, Metric::Dtz).map_err(OpenError::Dtm)?;
        if tables.endings().is_empty() && bitbases.is_empty() && dtz.endings().is_empty() {
            let names: Vec<String> = dirs.iter().map(|d| d.as_ref().display().to_string()).collect();
            return Err(OpenError::NoDtm(names.join(", ")));
        }
        self.dtm = (!tables.endings().is_empty()).then(|| Arc::new(tables));
        self.bitbases = (!bitbases.is_empty()).then(|| Arc::new(bitbases));
        self.dtz = (!dtz.endings().is_empty()).then(|| Arc::new(dtz));
        Ok(())
    }

    /// Replaces the Syzygy tables with those of `dir` (none when `None`). On error
    /// the prober is left without Syzygy tables.
    pub fn set_syzygy(&mut self, dir: Option<&Path>) -> Result<(), OpenError> {
        self.syzygy = None;
        let Some(dir) = dir else { return Ok(()) };
        let (prober, files) = SyzygyProber::open(dir).map_err(OpenError::Syzygy)?;
        if files == 0 {
            return Err(OpenError::NoSyzygy(dir.display().to_string()));
        }
        self.syzygy = Some(Arc::new(prober));
        Ok(())
    }

    /// Adds (with `Some(max_men)`) or removes tables generated in memory on
    /// first use ([`OnDemand`]): asked last, for small endings the loaded
    /// tables do not cover.
    pub fn set_on_demand(&mut self, max_men: Option<u32>) {
        self.on_demand = max_men.map(|n| Arc::new(OnDemand::new(n)));
    }

    /// True when no kind of table is loaded (or generated on demand).
    pub fn is_empty(&self) -> bool {
        self.dtm.is_none()
            && self.bitbases.is_none()
            && self.dtz.is_none()
            && self.syzygy.is_none()
            && self.on_demand.is_none()
    }

    /// The value from the tables loaded from disk (bitbases, DTM, DTZ, then
    /// Syzygy), without generating any.
    fn loaded_wdl(&self, pos: &Position) -> Option<Wdl> {
        if let Some(w) = self.bitbases.as_ref().and_then(|b| b.probe_wdl(pos)) {
            return Some(w);
        }
        if let Some(d) = self.dtm.as_ref().and_then(|t| t.probe_dtm(pos)) {
            return Some(d.wdl());
        }
        if let Some(d) = self.dtz.as_ref().and_then(|t| t.probe_dtm(pos)) {
            return Some(d.wdl());
        }
        TablebaseProbe::probe_wdl(self.syzygy.as_deref()?, pos)
    }

    /// The tables generated on demand, if enabled.
    pub fn on_demand(&self) -> Option<&OnDemand> {
        self.on_demand.as_deref()
    }

    /// The DTM tables, if loaded.
    pub fn dtm(&self) -> Option<&Tablebases> {
        self.dtm.as_deref()
    }

    /// The bitbases, if loaded.
    pub fn bitbases(&self) -> Option<&Bitbases> {
        self.bitbases.as_deref()
    }

    /// Bastion's DTZ tables, if loaded.
    pub fn dtz(&self) -> Option<&Tablebases> {
        self.dtz.as_deref()
    }

    /// The Syzygy tables, if loaded.
    pub fn syzygy(&self) -> Option<&SyzygyProber> {
        self.syzygy.as_deref()
    }
}

impl TablebaseProbe for Probers {
    fn max_pieces(&self) -> u32 {
        let dtm = self.dtm.as_ref().map_or(0, |t| t.max_men() as u32);
        let bitbases = self.bitbases.as_ref().map_or(0, |b| b.max_pieces());
        let dtz = self.dtz.as_ref().map_or(0, |t| t.max_men() as u32);
        let syzygy = self.syzygy.as_ref().map_or(0, |s| s.max_pieces() as u32);
        let on_demand = self.on_demand.as_ref().map_or(0, |t| t.max_pieces());
        dtm.max(bitbases).max(dtz).max(syzygy).max(on_demand)
    }

    fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.loaded_wdl(pos).or_else(|| self.on_demand.as_deref()?.probe_wdl(pos))
    }

    fn probe_dtm(&self, pos: &Position) -> Option<i32> {
        if let Some(d) = self.dtm.as_ref().and_then(|t| t.probe_dtm(pos)) {
            return Some(d.signed_plies());
        }
        // A position the loaded tables value without a distance (bitbases,
        // Syzygy) is not worth generating a table for.
        if self.loaded_wdl(pos).is_some() {
            return None;
        }
        self.on_demand.as_deref()?.probe_dtm(pos)
    }

    fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        if let Some(d) = self.dtz.as_deref().and_then(|t| TablebaseProbe::probe_dtz(t, pos)) {
            return Some(d);
        }
        TablebaseProbe::probe_dtz(self.syzygy.as_deref()?, pos)
    }

    fn probe_root(&self, pos: &Position) -> Option<Vec<(Move, Wdl, Option<i32>)>> {
        if let Some(values) = self.dtm.as_deref().and_then(|t| t.probe_root(pos)) {
            return Some(values);
        }
        // Bitbases ignore the 50-move rule: exact after any move, not only zeroing ones.
        if let Some(values) = self.bitbases.as_deref().and_then(|b| b.probe_root(pos)) {
            return Some(values);
        }
        root_values_after_zeroing(pos, |child| self.probe_wdl(child))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_probers_know_nothing() {
        let p = Probers::open::<&Path>(&[], None).unwrap();
        assert!(p.is_empty());
        assert_eq!(p.max_pieces(), 0);
        let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R w - - 0 1").unwrap();
        assert_eq!(p.probe_wdl(&pos), None);
        assert_eq!(p.probe_dtm(&pos), None);
        assert_eq!(p.probe_root(&pos), None);
    }

    #[test]
    fn directories_without_tables_are_errors() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        assert!(matches!(Probers::open(&[dir], None), Err(OpenError::NoDtm(_))));
        assert!(matches!(Probers::open::<&Path>(&[], Some(dir)), Err(OpenError::NoSyzygy(_))));
        assert!(matches!(Probers::open::<&Path>(&[], Some(&dir.join("missing"))), Err(OpenError::Syzygy(_))));
        assert!(matches!(Probers::open(&[dir.join("missing")], None), Err(OpenError::Dtm(_))));
    }
}
