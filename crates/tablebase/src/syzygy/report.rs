//! A position probed in Syzygy tables, as `bastion tb syzygy` shows it: the WDL and
//! DTZ of the position and of every legal move, like an online tablebase panel.

use std::fmt::Write as _;

use bastion_core::tablebase::Wdl;
use bastion_core::Position;
use serde::{Serialize, Serializer};

use super::positions::syzygy_name;
use super::{SyzygyError, SyzygyProber};
use crate::material::Material;

/// Writes a [`Wdl`] as its name (`"win"`, `"cursed-win"`, ...).
fn wdl_name<S: Serializer>(wdl: &Wdl, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(wdl.name())
}

/// One legal move and what it leads to.
#[derive(Debug, Clone, Serialize)]
pub struct SyzygyMove {
    /// The move in UCI notation.
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// The value for the side that moves (the position after it, seen from before).
    #[serde(serialize_with = "wdl_name")]
    pub wdl: Wdl,
    /// The DTZ of the position after the move, from the view of the side to move
    /// there, as the tables store it (negative when the mover wins).
    pub dtz_after: i32,
    /// True when the move is a capture or a pawn move (it resets the 50-move count).
    pub zeroing: bool,
    /// True when the move mates.
    pub checkmate: bool,
}

/// A position probed in Syzygy tables.
#[derive(Debug, Clone, Serialize)]
pub struct SyzygyReport {
    /// The position.
    pub fen: String,
    /// Its table, e.g. `KQvKR`.
    pub table: String,
    /// Win, draw or loss for the side to move with the 50-move count at zero (cursed
    /// wins and blessed losses are decided only when the 50-move rule is ignored).
    #[serde(serialize_with = "wdl_name")]
    pub wdl: Wdl,
    /// Distance to zeroing in plies (positive when the side to move wins).
    pub dtz: i32,
    /// True where the table stores the DTZ rounded (it may be one ply too high).
    pub dtz_rounded: bool,
    /// Every legal move, best for the side to move first.
    pub moves: Vec<SyzygyMove>,
}

impl SyzygyReport {
    /// Probes `pos` and each of its legal moves.
    /// Positions with castling rights or more men than the tables hold are errors
    /// that say so.
    pub fn probe(prober: &SyzygyProber, pos: &Position) -> Result<SyzygyReport, SyzygyError> {
        if !pos.castling().is_empty() {
            let e = "Syzygy tables hold no positions with castling rights (give '-' as the castling field)";
            return Err(SyzygyError::Probe(e.into()));
        }
        let men = pos.occupied().count() as usize;
        if men > prober.max_pieces() {
            let most = prober.max_pieces();
            return Err(SyzygyError::Probe(format!("the position has {men} men; the tables cover at most {most}")));
        }
        let wdl = prober.probe_wdl(pos)?;
        let (dtz, dtz_rounded) = prober.probe_dtz(pos)?;
        let mut moves = Vec::new();
        for m in pos.legal_moves().iter().copied() {
            let child = pos.play(m);
            moves.push(SyzygyMove {
                uci: pos.to_uci(m),
                san: pos.san(m),
                wdl: prober.probe_wdl(&child)?.flip(),
                dtz_after: prober.probe_dtz(&child)?.0,
                zeroing: child.halfmove_clock() == 0,
                checkmate: child.is_checkmate(),
            });
        }
        // Best first: the better value; among wins, mates, then zeroing moves, then the
        // shortest distance; among losses, the longest resistance.
        moves.sort_by_key(|m| {
            let tie = match m.wdl {
                Wdl::Win | Wdl::CursedWin => (!m.checkmate, !m.zeroing, m.dtz_after.abs()),
                Wdl::Loss | Wdl::BlessedLoss => (false, false, -m.dtz_after.abs()),
                Wdl::Draw => (false, false, 0),
            };
            (std::cmp::Reverse(m.wdl), tie)
        });
        Ok(SyzygyReport {
            fen: pos.fen(),
            table: syzygy_name(&Material::of(pos).normalized().0),
            wdl,
            dtz,
            dtz_rounded,
            moves,
        })
    }

    /// The report as text for a terminal.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let rounded = if self.dtz_rounded { " (rounded, may be one ply high)" } else { "" };
        let _ = writeln!(s, "table {}: {}, DTZ {}{rounded}", self.table, self.wdl.name(), self.dtz);
        for m in &self.moves {
            let mut notes = Vec::new();
            if m.checkmate {
                notes.push("mate");
            }
            if m.zeroing {
                notes.push("zeroing");
            }
            let _ = writeln!(
                s,
                "  {:<8} {:<6} {:<12} DTZ after {:>4}  {}",
                m.san,
                m.uci,
                m.wdl.name(),
                m.dtz_after,
                notes.join(", ")
            );
        }
        s
    }
}
