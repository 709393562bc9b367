//! Evaluations as the detector stores them: from White's point of view, unlike
//! the side-to-move [`Score`] that engines report.

use bastion_core::{Color, Score};
use serde::{Deserialize, Serialize};

/// Pawns a mate score counts as in curve arithmetic: far above any real
/// evaluation, so a mate always reads as a rise, and shorter mates higher.
pub const MATE_PAWNS: f64 = 100.0;

/// One backed-up evaluation from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns, positive when White is better.
    Cp(i32),
    /// Mate in this many moves; positive when White mates.
    Mate(i32),
}

impl Eval {
    /// Converts a reported score (side to move's view) to White's view.
    pub fn from_score(score: Score, side_to_move: Color) -> Eval {
        let sign = side_to_move.sign();
        match score {
            Score::Cp(cp) => Eval::Cp(cp.saturating_mul(sign)),
            Score::Mate(n) => Eval::Mate(n.saturating_mul(sign)),
        }
    }

    /// The value in pawns from White's view; mates map near ±[`MATE_PAWNS`].
    pub fn pawns(self) -> f64 {
        match self {
            Eval::Cp(cp) => f64::from(cp) / 100.0,
            // "Mate in 0" (side to move is mated) counts as a loss for it.
            Eval::Mate(n) if n > 0 => MATE_PAWNS - f64::from(n.min(999)) / 10.0,
            Eval::Mate(n) => -MATE_PAWNS + f64::from((-n).min(999)) / 10.0,
        }
    }

    /// The value in pawns for `side` (positive when `side` is better).
    pub fn pawns_for(self, side: Color) -> f64 {
        if side == Color::White {
            self.pawns()
        } else {
            -self.pawns()
        }
    }

    /// The mate distance (positive when White mates), if this is a mate score.
    pub fn mate(self) -> Option<i32> {
        match self {
            Eval::Mate(n) => Some(n),
            Eval::Cp(_) => None,
        }
    }

    /// Human-readable form: `+1.25`, `#7`, `#-3` (as [`Score`] displays, from White's view).
    pub fn display(self) -> String {
        match self {
            Eval::Cp(cp) => Score::Cp(cp),
            Eval::Mate(n) => Score::Mate(n),
        }
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_to_white_view() {
        assert_eq!(Eval::from_score(Score::Cp(30), Color::Black), Eval::Cp(-30));
        assert_eq!(Eval::from_score(Score::Mate(3), Color::Black), Eval::Mate(-3));
        assert_eq!(Eval::from_score(Score::Cp(30), Color::White), Eval::Cp(30));
    }

    #[test]
    fn mates_order_above_any_cp_and_shorter_is_better() {
        assert!(Eval::Mate(5).pawns() > Eval::Cp(5000).pawns());
        assert!(Eval::Mate(2).pawns() > Eval::Mate(9).pawns());
        assert!(Eval::Mate(-2).pawns() < Eval::Mate(-9).pawns());
        assert!(Eval::Mate(-1).pawns() < Eval::Cp(-5000).pawns());
        assert_eq!(Eval::Cp(-150).pawns_for(Color::Black), 1.5);
        assert_eq!(Eval::Mate(0).pawns(), -MATE_PAWNS);
    }
}
