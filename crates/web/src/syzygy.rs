//! Syzygy WDL/DTZ tables from `--syzygy-dir`, probed by `/api/tb/probe` beside
//! Bastion's DTM tables (and alone where no DTM table holds the material).
//! The reader is `bastion-tablebase`'s; this module only opens the directory,
//! lists its endings and turns probe failures into API errors.

use crate::error::{ApiError, ApiResult};
use bastion_core::tablebase::Wdl;
use bastion_core::Position;
use bastion_tablebase::syzygy::report::SyzygyReport;
use bastion_tablebase::syzygy::SyzygyError;
use bastion_tablebase::SyzygyProber;
use std::path::Path;

/// The Syzygy tables of `--syzygy-dir`.
pub struct SyzygyTables {
    prober: SyzygyProber,
    /// Endings with a WDL file, in Syzygy's naming (`KQvK`), sorted.
    endings: Vec<String>,
}

impl SyzygyTables {
    /// The reader itself, for parts that take any `TablebaseProbe` (the fortress detector).
    pub fn prober(&self) -> &SyzygyProber {
        &self.prober
    }

    /// The endings that have a WDL table (`KQvK`, `KPvK`, ...), sorted.
    pub fn endings(&self) -> &[String] {
        &self.endings
    }

    /// The Syzygy value of `pos` and of each of its moves, or `None` when the
    /// tables do not hold its material (or one that a capture or promotion leads to).
    /// A damaged table is a 503 that names it.
    pub fn probe(&self, pos: &Position) -> ApiResult<Option<SyzygyReport>> {
        if pos.occupied().count() as usize > self.prober.max_pieces() {
            return Ok(None);
        }
        match SyzygyReport::probe(&self.prober, pos) {
            Ok(report) => Ok(Some(report)),
            // Missing tables, castling rights: simply not covered.
            Err(SyzygyError::Probe(_) | SyzygyError::Position(_)) => Ok(None),
            Err(e @ SyzygyError::Damaged(_)) => Err(ApiError::unavailable(format!(
                "{e}; check the Syzygy directory with `bastion tb syzygy --verify --path DIR`"
            ))),
            Err(e) => Err(ApiError::internal(e.to_string())),
        }
    }
}

/// Opens `dir` (if given): every Syzygy file in it, and the list of its endings.
/// A directory without a single Syzygy file is an error, as a mistyped path would be.
pub fn open(dir: Option<&Path>) -> anyhow::Result<Option<SyzygyTables>> {
    let Some(d) = dir else { return Ok(None) };
    if !d.is_dir() {
        anyhow::bail!("Syzygy directory {} does not exist", d.display());
    }
    let (prober, files) = SyzygyProber::open(d).map_err(|e| anyhow::anyhow!("cannot open Syzygy tables: {e}"))?;
    if files == 0 {
        anyhow::bail!("no Syzygy files (*.rtbw, *.rtbz) in {}", d.display());
    }
    let mut endings: Vec<String> = std::fs::read_dir(d)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", d.display()))?
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            (path.extension()? == "rtbw").then(|| path.file_stem()?.to_str().map(str::to_owned)).flatten()
        })
        .collect();
    endings.sort();
    Ok(Some(SyzygyTables { prober, endings }))
}

/// A Syzygy WDL as the API writes it: `win`, `cursed_win`, `draw`, `blessed_loss`, `loss`.
pub fn wdl_name(w: Wdl) -> &'static str {
    match w {
        Wdl::Win => "win",
        Wdl::CursedWin => "cursed_win",
        Wdl::Draw => "draw",
        Wdl::BlessedLoss => "blessed_loss",
        Wdl::Loss => "loss",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_names_keep_or_drop_the_fifty_move_rule() {
        let all = [Wdl::Win, Wdl::CursedWin, Wdl::Draw, Wdl::BlessedLoss, Wdl::Loss];
        assert_eq!(all.map(wdl_name), ["win", "cursed_win", "draw", "blessed_loss", "loss"]);
        assert_eq!(all.map(|w| w.ignoring_fifty_move_rule().name()), ["win", "win", "draw", "loss", "loss"]);
    }
}
