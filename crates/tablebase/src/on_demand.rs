//! [`OnDemand`]: small DTM tables generated in memory the first time a probe
//! needs them, for callers that want exact values of simple endings without
//! table files on disk (the fortress detector, when the progress test's line
//! simplifies into a few men).
//!
//! Only cheap endings are generated: [`OnDemand::covers`] admits at most
//! `max_men` men and at most one pawn. A pawnless four-man table with its
//! sub-tables takes about a second on one core, a one-pawn four-man table
//! (with the pawnless tables its promotions lead to) about ten; two pawns
//! (KPKP: twenty tables, about a minute) are left to `bastion tb gen`.
//! Tables stay in memory for the prober's lifetime, so a suite pays for each
//! ending once.

use crate::gen::generate_all_into;
use crate::material::Material;
use crate::table::TableSet;
use crate::value::Dtm;
use bastion_core::tablebase::{TablebaseProbe, Wdl};
use bastion_core::{Color, Position, Role};
use std::sync::Mutex;

/// The most men [`OnDemand::new`] accepts: five-man tables take minutes and
/// hundreds of megabytes, which no probe should spend unasked.
pub const MAX_MEN: u32 = 4;

/// DTM tables generated on first use and kept in memory. Cheap to create:
/// nothing is generated until a probe needs it.
pub struct OnDemand {
    max_men: u32,
    set: Mutex<TableSet>,
}

impl OnDemand {
    /// A prober that generates the tables of endings with at most `max_men`
    /// men (clamped to 2..=[`MAX_MEN`]) and at most one pawn.
    pub fn new(max_men: u32) -> OnDemand {
        OnDemand { max_men: max_men.clamp(2, MAX_MEN), set: Mutex::new(TableSet::new()) }
    }

    /// Whether `pos`'s ending is one this prober generates: few enough men,
    /// at most one pawn, no castling rights (which no table encodes).
    pub fn covers(&self, pos: &Position) -> bool {
        let pawns = pos.pieces(Color::White, Role::Pawn).count() + pos.pieces(Color::Black, Role::Pawn).count();
        pos.occupied().count() <= self.max_men && pawns <= 1 && pos.castling().is_empty()
    }

    /// The names of the endings generated so far, sorted.
    pub fn generated(&self) -> Vec<String> {
        let set = self.set.lock().unwrap_or_else(|e| e.into_inner());
        let mut names: Vec<String> = set.materials().map(|m| m.name()).collect();
        names.sort();
        names
    }

    /// The exact value of `pos`, generating its ending (and the endings it
    /// leads to) first when needed; `None` when the ending is not covered.
    pub fn probe(&self, pos: &Position) -> Option<Dtm> {
        if !self.covers(pos) {
            return None;
        }
        // A poisoned lock only means another probe panicked mid-generation;
        // the set holds whole tables only (inserted after generation), so it
        // is still sound to use.
        let mut set = self.set.lock().unwrap_or_else(|e| e.into_inner());
        let material = Material::of(pos).normalized().0;
        if pos.occupied().count() > 2 && !set.contains(&material) {
            generate_all_into(&[material], &mut set);
        }
        set.probe(pos).ok().flatten()
    }
}

impl TablebaseProbe for OnDemand {
    fn max_pieces(&self) -> u32 {
        self.max_men
    }

    fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.probe(pos).map(Dtm::wdl)
    }

    fn probe_dtm(&self, pos: &Position) -> Option<i32> {
        self.probe(pos).map(Dtm::signed_plies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn generates_a_small_ending_once_and_values_it_exactly() {
        let tb = OnDemand::new(4);
        assert!(tb.generated().is_empty());
        // KRKB, and the same position with the colours exchanged: one table.
        let krkb = pos("6k1/8/8/8/8/8/2b5/K6R w - - 0 1");
        let value = tb.probe_dtm(&krkb);
        assert!(value.is_some());
        assert!(tb.generated().contains(&"KRKB".to_string()), "{:?}", tb.generated());
        let before = tb.generated();
        assert_eq!(tb.probe_dtm(&krkb.mirrored()), value);
        assert_eq!(tb.generated(), before);
        // KRK: mate for the side with the rook.
        assert!(tb.probe_dtm(&pos("8/8/8/8/8/2k5/8/K6R w - - 0 1")).is_some_and(|d| d > 0));
    }

    #[test]
    fn refuses_what_is_not_cheap() {
        let tb = OnDemand::new(4);
        // Five men, two pawns, castling rights.
        assert!(!tb.covers(&pos("4k3/8/8/8/8/8/2B5/R3K2R w - - 0 1")));
        assert!(!tb.covers(&pos("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1")));
        assert!(!tb.covers(&pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")));
        assert_eq!(tb.probe_wdl(&pos("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1")), None);
        assert!(tb.generated().is_empty());
        // The limit is clamped to what the prober may generate.
        assert_eq!(OnDemand::new(7).max_pieces(), MAX_MEN);
        // Bare kings need no table.
        assert_eq!(tb.probe_wdl(&pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), Some(Wdl::Draw));
        assert!(tb.generated().is_empty());
    }
}
