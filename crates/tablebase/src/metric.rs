//! What a table's distances count: plies to mate (DTM), to conversion (DTC) or
//! to zeroing (DTZ).
//!
//! Both metrics store the same codes (see [`crate::value`]): `Win(n)` / `Loss(n)`
//! with odd `n` for a win of the side to move and even `n` for a loss, so the
//! win/draw/loss part of a DTC table equals that of the DTM table of the same
//! ending. They differ in where the count stops:
//!
//! * **DTM**: at mate. A capture or promotion leads into a smaller ending whose
//!   distance to mate carries on.
//! * **DTC** (distance to conversion, Bratko 1978's measure for KRKN, whose
//!   sample line ends with the rook taking the knight): at mate or at the first
//!   capture or promotion. A capture or promotion after which the mover still
//!   wins is a conversion at distance 1 (`Win(1)`, like a mating move); one
//!   into a drawn ending is a draw; one into an ending the mover loses ends the
//!   phase against the mover, like being mated (`Loss(0)`), so the losing side
//!   plays it only when every other move loses as fast. Counted in moves of the
//!   winning side, that equals the usual DTC, where a capture by either side is a
//!   conversion; in plies, a line that ends with the losing side's forced capture
//!   ends one ply early, at the winner's move that forces it.
//! * **DTZ** (distance to zeroing, as Syzygy's DTZ counts it, without its
//!   rounding or the 50-move rule): as DTC, and a pawn move is an exit too,
//!   valued from the win/draw/loss of the same ending's position after it (a
//!   pawn move resets the 50-move counter as a capture does). In a pawnless
//!   ending DTZ equals DTC. A DTZ table is built from finished DTM tables of the
//!   ending and its sub-endings (see [`crate::gen::generate_in`]).

use crate::material::Material;
use crate::value::Dtm;
use bastion_core::{Move, Position, Role};
use serde::Serialize;

/// The distance a table stores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Distance to mate in plies.
    #[default]
    Dtm,
    /// Distance to conversion in plies: to mate, or to a capture or promotion
    /// that keeps the win.
    Dtc,
    /// Distance to zeroing in plies: to mate, or to a capture or pawn move that
    /// keeps the win.
    Dtz,
}

impl Metric {
    /// Every metric.
    pub const ALL: [Metric; 3] = [Metric::Dtm, Metric::Dtc, Metric::Dtz];

    /// The code in a table file's header (byte 28).
    pub fn header_code(self) -> u8 {
        match self {
            Metric::Dtm => 1,
            Metric::Dtc => 2,
            Metric::Dtz => 3,
        }
    }

    /// The metric of a header code, `None` if unknown.
    pub fn from_header_code(code: u8) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.header_code() == code)
    }

    /// The short name, as `tb gen --metric` takes it: `dtm`, `dtc` or `dtz`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Dtm => "dtm",
            Metric::Dtc => "dtc",
            Metric::Dtz => "dtz",
        }
    }

    /// What the distance counts, in words.
    pub fn description(self) -> &'static str {
        match self {
            Metric::Dtm => "distance to mate",
            Metric::Dtc => "distance to conversion",
            Metric::Dtz => "distance to zeroing",
        }
    }

    /// The end of a table file's name: `.btb` for DTM, `.dtc.btb` for DTC,
    /// `.dtz.btb` for DTZ. The names differ so that a DTC or DTZ table is never
    /// picked up by a reader of DTM tables.
    pub fn file_suffix(self) -> &'static str {
        match self {
            Metric::Dtm => ".btb",
            Metric::Dtc => ".dtc.btb",
            Metric::Dtz => ".dtz.btb",
        }
    }

    /// The file name of an ending's table: `KRKN.btb` or `KRKN.dtc.btb`.
    pub fn file_name(self, m: &Material) -> String {
        format!("{}{}", m.name(), self.file_suffix())
    }

    /// The ending named by a table file name of this metric, if it is one.
    pub fn ending_of_file_name(self, file_name: &str) -> Option<Material> {
        let stem = file_name.strip_suffix(self.file_suffix())?;
        let m = Material::parse(stem).ok()?;
        (m.is_normalized() && m.name() == stem).then_some(m)
    }

    /// True if `m`, legal in `pos`, leaves the ending (a capture or a promotion):
    /// its value comes from a smaller table.
    pub fn leaves_ending(pos: &Position, m: Move) -> bool {
        m.is_en_passant() || m.is_promotion() || pos.piece_at(m.to()).is_some()
    }

    /// True if the legal move `m` of `pos` is an exit in this metric: a move
    /// valued by [`Metric::exit_value`] rather than by the distance after it. For
    /// every metric a capture or promotion; for DTZ also a pawn move.
    pub fn is_exit(self, pos: &Position, m: Move) -> bool {
        Metric::leaves_ending(pos, m) || (self == Metric::Dtz && pos.role_at(m.from()) == Some(Role::Pawn))
    }

    /// The value, for the mover, of an exit (see [`Metric::is_exit`]) into a
    /// position whose value (for its side to move) is `after`. Only the
    /// win/draw/loss part of `after` counts for DTC and DTZ.
    pub fn exit_value(self, after: Dtm) -> Dtm {
        match (self, after) {
            (Metric::Dtm, v) => v.back(),
            (Metric::Dtc | Metric::Dtz, Dtm::Loss(_)) => Dtm::Win(1),
            (Metric::Dtc | Metric::Dtz, Dtm::Draw) => Dtm::Draw,
            (Metric::Dtc | Metric::Dtz, Dtm::Win(_)) => Dtm::Loss(0),
        }
    }

    /// The value, for the mover, of the legal move `m` of `pos` leading to a
    /// position of value `after`.
    pub fn move_value(self, pos: &Position, m: Move, after: Dtm) -> Dtm {
        if self.is_exit(pos, m) {
            self.exit_value(after)
        } else {
            after.back()
        }
    }

    /// A value in words: "win, mate in 14 (27 plies)" for DTM, "win, DTC 27
    /// (conversion in 14 moves)" for DTC, "win, DTZ 27 (...)" for DTZ in
    /// Syzygy's signed count ([`Dtm::signed_dtz`]).
    pub fn describe(self, v: Dtm) -> String {
        match (self, v) {
            (Metric::Dtm, v) => v.to_string(),
            (Metric::Dtc, Dtm::Win(n)) => format!("win, DTC {n} (conversion in {})", moves(n.div_ceil(2))),
            (Metric::Dtc, Dtm::Loss(0)) => "loss, DTC 0 (checkmated, or every move converts to a loss)".to_string(),
            (Metric::Dtc, Dtm::Loss(n)) => format!("loss, DTC {n} (conversion in {})", moves(n / 2)),
            (Metric::Dtc, Dtm::Draw) => "draw".to_string(),
            (Metric::Dtz, Dtm::Win(n)) => format!("win, DTZ {n} (capture, pawn move or mate in {})", plies(n)),
            (Metric::Dtz, Dtm::Loss(0)) => "loss, DTZ -1 (checkmated, or every move zeroes into a loss)".to_string(),
            (Metric::Dtz, Dtm::Loss(n)) => {
                format!("loss, DTZ -{n} (the opponent's capture, pawn move or mate in {})", plies(n))
            }
            (Metric::Dtz, Dtm::Draw) => "draw".to_string(),
        }
    }
}

/// "1 ply", "2 plies".
fn plies(n: u16) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// "1 move", "2 moves".
pub fn moves(n: u16) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Metric {
    type Err = String;

    fn from_str(s: &str) -> Result<Metric, String> {
        Metric::ALL.into_iter().find(|m| m.name().eq_ignore_ascii_case(s)).ok_or_else(|| {
            format!(
                "unknown metric {s:?}: expected dtm (distance to mate), dtc (distance to conversion) or dtz (distance to zeroing)"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_codes_and_file_names_round_trip() {
        for m in Metric::ALL {
            assert_eq!(Metric::from_header_code(m.header_code()), Some(m));
            assert_eq!(m.name().parse::<Metric>(), Ok(m));
            let krkn = Material::parse("KRKN").unwrap();
            assert_eq!(m.ending_of_file_name(&m.file_name(&krkn)), Some(krkn));
        }
        assert_eq!(Metric::from_header_code(0), None);
        assert!("dtx".parse::<Metric>().is_err());
        assert_eq!(Metric::Dtz.file_name(&Material::parse("KPK").unwrap()), "KPK.dtz.btb");
        assert_eq!(Metric::Dtm.ending_of_file_name("KPK.dtz.btb"), None);
        assert_eq!(Metric::Dtc.ending_of_file_name("KPK.dtz.btb"), None);
        assert_eq!(Metric::Dtm.file_name(&Material::parse("KRKN").unwrap()), "KRKN.btb");
        // A reader of DTM tables does not take a DTC file for one, nor the reverse.
        assert_eq!(Metric::Dtm.ending_of_file_name("KRKN.dtc.btb"), None);
        assert_eq!(Metric::Dtc.ending_of_file_name("KRKN.btb"), None);
    }

    #[test]
    fn conversions_take_only_the_result_of_the_smaller_ending() {
        assert_eq!(Metric::Dtc.exit_value(Dtm::Loss(30)), Dtm::Win(1));
        assert_eq!(Metric::Dtc.exit_value(Dtm::Loss(0)), Dtm::Win(1));
        assert_eq!(Metric::Dtc.exit_value(Dtm::Win(7)), Dtm::Loss(0));
        assert_eq!(Metric::Dtc.exit_value(Dtm::Draw), Dtm::Draw);
        assert_eq!(Metric::Dtm.exit_value(Dtm::Loss(30)), Dtm::Win(31));
        assert_eq!(Metric::Dtz.exit_value(Dtm::Win(7)), Dtm::Loss(0));
        assert_eq!(Metric::Dtz.describe(Dtm::Win(1)), "win, DTZ 1 (capture, pawn move or mate in 1 ply)");
        assert_eq!(
            Metric::Dtz.describe(Dtm::Loss(4)),
            "loss, DTZ -4 (the opponent's capture, pawn move or mate in 4 plies)"
        );
    }
}
