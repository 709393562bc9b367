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

impl Wdl {
    /// The same value seen by the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// A tablebase the search can consult.
pub trait TbProber: Send + Sync {
    /// Largest number of pieces (kings included) the tables cover.
    fn max_pieces(&self) -> u32;
    /// WDL value of `pos`, or `None` if not covered. The search calls it only right after
    /// a capture or pawn move (halfmove clock 0), where Syzygy WDL is exact.
    fn probe_wdl(&self, pos: &Position) -> Option<Wdl>;
    /// Exact distance to mate in plies if the tables have it: `+n` the side to move mates
    /// in `n`, `-n` it is mated in `n`, `0` drawn. Default: not available.
    fn probe_dtm(&self, _pos: &Position) -> Option<i32> {
        None
    }
    /// Per-move values at the root, for the side playing the move, with an optional
    /// distance to mate in plies (the search keeps the moves with the best value, and
    /// among wins the shortest, among losses the longest distance).
    /// Default: derived from `probe_dtm`, else `probe_wdl`, of each child.
    fn probe_root(&self, pos: &Position) -> Option<Vec<(Move, Wdl, Option<i32>)>> {
        let mut out = Vec::new();
        for m in pos.legal_moves().iter().copied() {
            let child = pos.play(m);
            if child.is_checkmate() {
                out.push((m, Wdl::Win, Some(1)));
                continue;
            }
            if let Some(d) = self.probe_dtm(&child) {
                let (w, dist) = match d.signum() {
                    1 => (Wdl::Loss, Some(d + 1)),
                    -1 => (Wdl::Win, Some(-d + 1)),
                    _ => (Wdl::Draw, None),
                };
                out.push((m, w, dist));
                continue;
            }
            out.push((m, self.probe_wdl(&child)?.flip(), None));
        }
        Some(out)
    }
}
