//! What every user of endgame tablebases shares: the game-theoretic value
//! [`Wdl`] and the prober trait [`TablebaseProbe`].
//!
//! The engine's search, the match referee and the tools probe through the trait;
//! the tablebase crate implements it for Bastion's DTM tables, for Syzygy files
//! and for the two combined. Keeping the trait here lets the engine and the
//! referee consult tables without depending on the code that reads them.

use crate::moves::Move;
use crate::position::Position;
use std::fmt;

/// Game-theoretic value from the side to move's view, in Syzygy's five classes.
///
/// Tables that ignore the 50-move rule (Bastion's DTM tables) only ever give
/// `Loss`, `Draw` and `Win`. The order is the side to move's preference.
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
    /// All five values, worst first.
    pub const ALL: [Wdl; 5] = [Wdl::Loss, Wdl::BlessedLoss, Wdl::Draw, Wdl::CursedWin, Wdl::Win];

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

    /// Syzygy's numbering: `-2` loss, `-1` blessed loss, `0` draw, `1` cursed win, `2` win.
    pub fn to_i8(self) -> i8 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    /// The value of Syzygy's number `n` (see [`Wdl::to_i8`]); `None` outside `-2..=2`.
    pub fn from_i8(n: i8) -> Option<Wdl> {
        Some(match n {
            -2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            2 => Wdl::Win,
            _ => return None,
        })
    }

    /// The result under the 50-move rule: `1` the side to move wins, `-1` it loses,
    /// `0` drawn (cursed wins and blessed losses included).
    pub fn result(self) -> i8 {
        match self {
            Wdl::Win => 1,
            Wdl::Loss => -1,
            Wdl::BlessedLoss | Wdl::Draw | Wdl::CursedWin => 0,
        }
    }

    /// The result without the 50-move rule: cursed wins count as wins, blessed losses
    /// as losses.
    pub fn ignoring_fifty_move_rule(self) -> Wdl {
        match self {
            Wdl::CursedWin => Wdl::Win,
            Wdl::BlessedLoss => Wdl::Loss,
            w => w,
        }
    }

    /// The lower-case name used in JSON output: `loss`, `blessed-loss`, `draw`,
    /// `cursed-win`, `win`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed-loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed-win",
            Wdl::Win => "win",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tablebase that engines and tools can consult.
pub trait TablebaseProbe: Send + Sync {
    /// Largest number of pieces (kings included) the tables cover.
    fn max_pieces(&self) -> u32;

    /// WDL value of `pos`, or `None` if not covered. The engine's search calls it only
    /// right after a capture or pawn move (halfmove clock 0), where Syzygy WDL is exact.
    fn probe_wdl(&self, pos: &Position) -> Option<Wdl>;

    /// Exact distance to mate in plies if the tables have it: `+n` the side to move mates
    /// in `n`, `-n` it is mated in `n`, `0` drawn (or checkmated now). Default: not available.
    fn probe_dtm(&self, _pos: &Position) -> Option<i32> {
        None
    }

    /// Syzygy's distance to zeroing in plies if the tables have it: the plies to the
    /// next capture or pawn move (or mate) of an optimal line, signed from the side to
    /// move's view (`+n` wins, `-n` loses, `0` drawn), ignoring the halfmove clock. A
    /// cursed win counts beyond 100. Tables may store it one ply high. Default: not
    /// available.
    fn probe_dtz(&self, _pos: &Position) -> Option<i32> {
        None
    }

    /// Per-move values at the root, for the side playing the move, with an optional
    /// distance to mate in plies (the search keeps the moves with the best value, and
    /// among wins the shortest, among losses the longest distance); `None` when some
    /// move's value is unknown.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_flip_and_order() {
        for w in Wdl::ALL {
            assert_eq!(Wdl::from_i8(w.to_i8()), Some(w));
            assert_eq!(w.flip().flip(), w);
            assert_eq!(w.flip().to_i8(), -w.to_i8());
            assert_eq!(w.flip().result(), -w.result());
        }
        assert_eq!(Wdl::from_i8(3), None);
        assert!(Wdl::ALL.windows(2).all(|p| p[0] < p[1]));
        assert_eq!(Wdl::CursedWin.result(), 0);
        assert_eq!(Wdl::CursedWin.ignoring_fifty_move_rule(), Wdl::Win);
        assert_eq!(Wdl::BlessedLoss.to_string(), "blessed-loss");
    }

    /// Knows one position: White to move mates in one (1 ply) with Ra8.
    struct OneMate;

    impl TablebaseProbe for OneMate {
        fn max_pieces(&self) -> u32 {
            3
        }
        fn probe_wdl(&self, _pos: &Position) -> Option<Wdl> {
            Some(Wdl::Draw)
        }
    }

    #[test]
    fn default_root_probe_finds_the_mate() {
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
        let values = OneMate.probe_root(&pos).unwrap();
        assert_eq!(values.len(), pos.legal_moves().len());
        let mate = pos.parse_san("Ra8").unwrap();
        assert!(values.contains(&(mate, Wdl::Win, Some(1))));
        assert_eq!(values.iter().filter(|v| v.1 == Wdl::Win).count(), 1);
    }
}
