//! The engine's view of endgame tablebases: a trait the CLI implements with
//! whatever tablebase code it has, so this crate does not depend on it.

use bastion_core::{Move, Position};

/// Game-theoretic value from the side to move's view (Syzygy's five classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but saved by the 50-move rule.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but spoiled by the 50-move rule.
    CursedWin,
    /// Won.
    Win,
}

/// A tablebase the search can consult.
pub trait TbProber: Send + Sync {
    /// Largest number of pieces (kings included) the tables cover.
    fn max_pieces(&self) -> u32;
    /// WDL value of `pos`, or `None` if not covered.
    fn probe_wdl(&self, pos: &Position) -> Option<Wdl>;
    /// Per-move values at the root (side to move's view after each move is
    /// negated back, i.e. the value for the mover) with optional distance to mate in plies.
    /// Default: derived from `probe_wdl` of each child.
    fn probe_root(&self, pos: &Position) -> Option<Vec<(Move, Wdl, Option<i32>)>> {
        let mut out = Vec::new();
        for m in pos.legal_moves().iter().copied() {
            let child = pos.play(m);
            let v = if child.is_checkmate() { Wdl::Loss } else { self.probe_wdl(&child)? };
            let mine = match v {
                Wdl::Loss => Wdl::Win,
                Wdl::BlessedLoss => Wdl::CursedWin,
                Wdl::Draw => Wdl::Draw,
                Wdl::CursedWin => Wdl::BlessedLoss,
                Wdl::Win => Wdl::Loss,
            };
            out.push((m, mine, None));
        }
        Some(out)
    }
}
