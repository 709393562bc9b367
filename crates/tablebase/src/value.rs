//! Values of positions: distance to mate in plies ([`Dtm`]), and its
//! win/draw/loss part, the core's [`Wdl`] (re-exported here).
//!
//! Stored codes: 0 = draw, 1 = illegal or non-canonical index, `2 + n` = mate
//! in `n` plies: the side to move wins if `n` is odd and is mated if `n` is
//! even (a side to move cannot be mated on its own move).

pub use bastion_core::tablebase::Wdl;
use serde::Serialize;
use std::cmp::Ordering;

/// Code of a draw.
pub const DRAW: u16 = 0;
/// Code of an illegal or non-canonical index.
pub const ILLEGAL: u16 = 1;

/// The longest distance in plies among `codes` (0 if none is decided).
pub fn longest_plies(codes: impl Iterator<Item = u16>) -> u16 {
    codes.filter(|&c| c > ILLEGAL).map(|c| c - 2).max().unwrap_or(0)
}

/// Exact game-theoretic value with distance to mate, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "result", content = "plies", rename_all = "lowercase")]
pub enum Dtm {
    /// The side to move mates in this many plies (odd).
    Win(u16),
    /// The side to move is mated in this many plies (even; 0 = checkmated now).
    Loss(u16),
    /// Drawn with best play.
    Draw,
}

impl Dtm {
    /// Decodes a stored code; `None` for [`ILLEGAL`].
    #[inline]
    pub fn from_code(code: u16) -> Option<Dtm> {
        match code {
            DRAW => Some(Dtm::Draw),
            ILLEGAL => None,
            c => {
                let n = c - 2;
                Some(if n % 2 == 1 { Dtm::Win(n) } else { Dtm::Loss(n) })
            }
        }
    }

    /// The stored code.
    #[inline]
    pub fn code(self) -> u16 {
        match self {
            Dtm::Draw => DRAW,
            Dtm::Win(n) | Dtm::Loss(n) => n + 2,
        }
    }

    /// The win/draw/loss part (DTM tables ignore the 50-move rule: never cursed or blessed).
    pub fn wdl(self) -> Wdl {
        match self {
            Dtm::Win(_) => Wdl::Win,
            Dtm::Draw => Wdl::Draw,
            Dtm::Loss(_) => Wdl::Loss,
        }
    }

    /// Plies to mate, if not drawn.
    pub fn plies(self) -> Option<u16> {
        match self {
            Dtm::Win(n) | Dtm::Loss(n) => Some(n),
            Dtm::Draw => None,
        }
    }

    /// The value of the position before a move that leads to a position of value `self`.
    #[inline]
    pub fn back(self) -> Dtm {
        match self {
            Dtm::Win(n) => Dtm::Loss(n + 1),
            Dtm::Loss(n) => Dtm::Win(n + 1),
            Dtm::Draw => Dtm::Draw,
        }
    }

    /// Preference order for the side to move: shorter wins first, then draws,
    /// then longer losses. `Greater` means better.
    pub fn better(self, other: Dtm) -> Ordering {
        fn key(d: Dtm) -> i32 {
            match d {
                Dtm::Win(n) => 100_000 - n as i32,
                Dtm::Draw => 0,
                Dtm::Loss(n) => -100_000 + n as i32,
            }
        }
        key(self).cmp(&key(other))
    }

    /// Signed plies as engines (and Gaviota) report them: `+n` the side to move
    /// mates in `n`, `-n` it is mated in `n`, `0` drawn or checkmated now.
    pub fn signed_plies(self) -> i32 {
        match self {
            Dtm::Win(n) => n as i32,
            Dtm::Loss(n) => -(n as i32),
            Dtm::Draw => 0,
        }
    }

    /// A DTZ table's value in Syzygy's signed count (without its rounding or
    /// the 50-move rule): `+n` the side to move zeroes (or mates) in `n` plies
    /// keeping the win, `-n` the opponent does, `0` drawn. `Loss(0)`, where
    /// every move zeroes into a lost position (or there is none), is `-1`, the
    /// value Syzygy gives the loser's zeroing move.
    pub fn signed_dtz(self) -> i32 {
        match self {
            Dtm::Loss(0) => -1,
            d => d.signed_plies(),
        }
    }

    /// Moves (not plies) to mate, as chess literature counts: "mate in N".
    pub fn moves(self) -> Option<u16> {
        match self {
            Dtm::Win(n) => Some(n.div_ceil(2)),
            Dtm::Loss(n) => Some(n / 2),
            Dtm::Draw => None,
        }
    }
}

/// `1 ply`, `n plies`.
fn plies(n: u16) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

impl std::fmt::Display for Dtm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dtm::Win(n) => write!(f, "win, mate in {} ({})", n.div_ceil(2), plies(*n)),
            Dtm::Loss(0) => write!(f, "loss, checkmated"),
            Dtm::Loss(n) => write!(f, "loss, mated in {} ({})", n / 2, plies(*n)),
            Dtm::Draw => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_order() {
        for d in [Dtm::Draw, Dtm::Win(1), Dtm::Win(31), Dtm::Loss(0), Dtm::Loss(80)] {
            assert_eq!(Dtm::from_code(d.code()), Some(d));
        }
        assert_eq!(Dtm::from_code(ILLEGAL), None);
        assert_eq!(Dtm::Loss(0).back(), Dtm::Win(1));
        assert!(Dtm::Win(1).better(Dtm::Win(3)).is_gt());
        assert!(Dtm::Loss(10).better(Dtm::Loss(2)).is_gt());
        assert!(Dtm::Draw.better(Dtm::Loss(100)).is_gt());
        assert_eq!([Dtm::Win(3), Dtm::Loss(0), Dtm::Loss(4), Dtm::Draw].map(Dtm::signed_dtz), [3, -1, -4, 0]);
    }
}
