//! Search values with mate encoding, and their conversion to the reported
//! [`Score`] (the core's type, re-exported here).
//!
//! Internally a score is an `i32` in centipawns from the side to move's view.
//! Mates are `MATE - ply` (the side to move mates) or `-(MATE - ply)`; tablebase
//! wins sit just below the mate range so that a found mate always beats them.

/// Maximum search depth in plies (also the size of per-ply stacks).
pub const MAX_PLY: usize = 128;
/// Larger than any real score.
pub const INFINITE: i32 = 32_000;
/// Score of delivering mate right now (at ply 0).
pub const MATE: i32 = 31_000;
/// Scores at or beyond this magnitude are mates.
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32;
/// A tablebase win at ply 0; scores in `TB_WIN_IN_MAX..MATE_IN_MAX` are tablebase wins.
pub const TB_WIN: i32 = MATE_IN_MAX - 1;
/// Scores at or beyond this magnitude (but below mates) are tablebase wins.
pub const TB_WIN_IN_MAX: i32 = TB_WIN - MAX_PLY as i32;

/// Score for mating in `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Score for being mated in `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// True if `v` encodes a forced mate for either side.
#[inline]
pub const fn is_mate(v: i32) -> bool {
    v.abs() >= MATE_IN_MAX && v.abs() <= MATE
}

/// True if `v` is a mate or a tablebase win/loss (not a heuristic value).
#[inline]
pub const fn is_decisive(v: i32) -> bool {
    v.abs() >= TB_WIN_IN_MAX
}

/// Converts a score relative to the current node into one relative to the TT entry
/// (mate distances are stored from the node, not the root).
#[inline]
pub fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= TB_WIN_IN_MAX {
        v + ply as i32
    } else if v <= -TB_WIN_IN_MAX {
        v - ply as i32
    } else {
        v
    }
}

/// Inverse of [`to_tt`]; 50-move-rule subtleties are ignored (the search re-verifies mates).
#[inline]
pub fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= TB_WIN_IN_MAX {
        v - ply as i32
    } else if v <= -TB_WIN_IN_MAX {
        v + ply as i32
    } else {
        v
    }
}

pub use bastion_core::score::Score;

/// The engine's conversion from an internal search value to a reported [`Score`].
pub trait FromValue {
    /// Converts an internal search value: mates to moves to mate, tablebase wins to
    /// large centipawn values that shrink with the distance to them.
    fn from_value(v: i32) -> Self;
}

impl FromValue for Score {
    fn from_value(v: i32) -> Score {
        if is_mate(v) {
            let plies = MATE - v.abs();
            let moves = (plies + 1) / 2;
            Score::Mate(if v > 0 { moves } else { -moves })
        } else if v.abs() >= TB_WIN_IN_MAX {
            // Tablebase win/loss: a large but finite value, further plies to it reduce it.
            let plies = TB_WIN - v.abs();
            let cp = 20_000 - plies;
            Score::Cp(if v > 0 { cp } else { -cp })
        } else {
            Score::Cp(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_encoding_round_trips() {
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(57), Score::Cp(57));
        assert!(is_mate(mate_in(100)) && !is_mate(TB_WIN));
        for ply in 0..20 {
            let v = mate_in(7);
            assert_eq!(from_tt(to_tt(v, ply), ply), v);
        }
        assert!(Score::Mate(2).ordinal() > Score::Mate(3).ordinal());
        assert!(Score::Mate(-2).ordinal() < Score::Mate(-3).ordinal());
    }
}
