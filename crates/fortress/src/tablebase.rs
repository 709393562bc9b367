//! Tablebase evidence: where the analysed position, or a position the
//! progress test reaches after a capture or pawn move, has few enough men for
//! the tables the caller supplies, their exact value decides instead of the
//! curves.
//!
//! The detector only sees tables through bastion-core's [`TablebaseProbe`]
//! trait (Syzygy WDL files, Bastion's DTM tables, or both), so it never
//! depends on the code that reads them. A table win for the side ahead means
//! progress, a table draw with a material edge a fortress, a table draw with
//! level material a dead draw. Values are taken without the fifty-move rule
//! (a Syzygy *cursed win* counts as a win), the same convention as Bastion's
//! DTM tables and the labels of the development set.

use bastion_core::{Color, Position, TablebaseProbe, Wdl};
use serde::{Deserialize, Serialize};

use crate::classify::{Basis, Side, Thresholds, Verdict};

/// One position valued by the tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableValue {
    /// The position probed (FEN).
    pub fen: String,
    /// The moves (SAN) that led there from the analysed position; empty when
    /// the analysed position itself was probed.
    pub line: Vec<String>,
    /// Men on the board, kings included.
    pub men: u32,
    /// The tables' value for the side to move there, as the tables name it
    /// (`win`, `cursed-win`, `draw`, `blessed-loss`, `loss`).
    pub value: String,
    /// The side that wins ignoring the fifty-move rule; `None`: drawn.
    pub winner: Option<Side>,
    /// Distance to mate in plies for the side to move (`+n` mates, `-n` is
    /// mated), when the tables hold one.
    pub dtm: Option<i32>,
}

impl TableValue {
    /// The value in words, e.g. "White wins (mate in 28 plies)" or "drawn".
    pub fn describe(&self) -> String {
        let who = match self.winner {
            Some(Side::White) => "White wins",
            Some(Side::Black) => "Black wins",
            None => "drawn",
        };
        let dist = match self.dtm {
            Some(d) if d != 0 => format!(", mate in {} plies", d.unsigned_abs()),
            _ => String::new(),
        };
        let cursed = if self.value == Wdl::CursedWin.name() || self.value == Wdl::BlessedLoss.name() {
            ", beyond the fifty-move rule"
        } else {
            ""
        };
        format!("{who} ({}-man tablebase{dist}{cursed})", self.men)
    }
}

/// The tables' value of `pos`, reached by `line` (SAN) from the analysed
/// position, when the tables cover it: no more men than they hold and no
/// castling rights (which no table encodes).
pub fn lookup(tb: &dyn TablebaseProbe, pos: &Position, line: &[String]) -> Option<TableValue> {
    let n = pos.occupied().count();
    if n > tb.max_pieces() || !pos.castling().is_empty() {
        return None;
    }
    let dtm = tb.probe_dtm(pos);
    let wdl = match dtm {
        Some(d) if d > 0 => Wdl::Win,
        Some(d) if d < 0 => Wdl::Loss,
        // 0 is a draw or the side to move already checkmated.
        Some(_) if pos.is_checkmate() => Wdl::Loss,
        Some(_) => Wdl::Draw,
        None => tb.probe_wdl(pos)?,
    };
    let stm = pos.side_to_move();
    let winner = match wdl.ignoring_fifty_move_rule() {
        Wdl::Win => Some(Side::from(stm)),
        Wdl::Loss => Some(Side::from(!stm)),
        _ => None,
    };
    Some(TableValue { fen: pos.fen(), line: line.to_vec(), men: n, value: wdl.name().to_owned(), winner, dtm })
}

/// The verdict a table value gives for the analysed position, whose material
/// balance (White minus Black) is `material`: a win is progress, a draw
/// with a material edge a fortress, a draw with level material a dead draw.
pub fn verdict_of(value: &TableValue, material: i32, t: &Thresholds) -> (Verdict, Basis, String) {
    let at = if value.line.is_empty() {
        "the position is in the tables".to_owned()
    } else {
        format!("after {} the position is in the tables", value.line.join(" "))
    };
    match value.winner {
        Some(_) => (Verdict::Progress, Basis::Tablebase, format!("tablebase: {at}: {}", value.describe())),
        None if material.abs() >= t.material_edge => {
            let ahead = if material > 0 { Color::White } else { Color::Black };
            (
                Verdict::Fortress,
                Basis::Tablebase,
                format!(
                    "tablebase: {at}: {} although {} is {} up in material: it cannot win",
                    value.describe(),
                    side_name(ahead),
                    material.abs()
                ),
            )
        }
        None => (
            Verdict::DeadDraw,
            Basis::Tablebase,
            format!("tablebase: {at}: {} with level material (balance {material:+})", value.describe()),
        ),
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers a fixed value for every position of at most `max` men.
    struct Fixed {
        max: u32,
        wdl: Wdl,
        dtm: Option<i32>,
    }

    impl TablebaseProbe for Fixed {
        fn max_pieces(&self) -> u32 {
            self.max
        }
        fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
            (pos.occupied().count() <= self.max).then_some(self.wdl)
        }
        fn probe_dtm(&self, _pos: &Position) -> Option<i32> {
            self.dtm
        }
    }

    const KBPK: &str = "8/k7/8/P7/8/2K5/3B4/8 w - - 0 1";

    #[test]
    fn values_turn_into_verdicts() {
        let pos = Position::from_fen(KBPK).unwrap();
        let t = Thresholds::default();
        let draw = lookup(&Fixed { max: 4, wdl: Wdl::Draw, dtm: None }, &pos, &[]).unwrap();
        assert_eq!((draw.men, draw.winner), (4, None));
        let (v, basis, reason) = verdict_of(&draw, 4, &t);
        assert_eq!((v, basis), (Verdict::Fortress, Basis::Tablebase));
        assert!(reason.starts_with("tablebase:"), "{reason}");
        assert_eq!(verdict_of(&draw, 0, &t).0, Verdict::DeadDraw);
        // Black to move and lost: White is the winner; a cursed win still counts.
        let lost = lookup(&Fixed { max: 4, wdl: Wdl::BlessedLoss, dtm: None }, &pos, &[]).unwrap();
        assert_eq!(lost.winner, Some(Side::Black));
        assert!(lost.describe().contains("fifty-move"), "{}", lost.describe());
        let dtm = lookup(&Fixed { max: 4, wdl: Wdl::Draw, dtm: Some(55) }, &pos, &["Kb4".into()]).unwrap();
        assert_eq!((dtm.winner, dtm.value.as_str()), (Some(Side::White), "win"));
        let (v, _, reason) = verdict_of(&dtm, 4, &t);
        assert_eq!(v, Verdict::Progress);
        assert!(reason.contains("after Kb4") && reason.contains("mate in 55 plies"), "{reason}");
    }

    #[test]
    fn positions_beyond_the_tables_are_not_covered() {
        let pos = Position::from_fen(KBPK).unwrap();
        assert!(lookup(&Fixed { max: 3, wdl: Wdl::Draw, dtm: None }, &pos, &[]).is_none());
        let castling = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
        assert!(lookup(&Fixed { max: 5, wdl: Wdl::Win, dtm: None }, &castling, &[]).is_none());
    }
}
