//! Tables in memory and a set of tables that answers probes for any position
//! of the endings it holds (colour flips and en-passant squares handled).

use crate::error::TbError;
use crate::index::Indexer;
use crate::material::Material;
use crate::metric::Metric;
use crate::value::Dtm;
use bastion_core::{zobrist, Color, Piece, Position, Role};
use std::collections::HashMap;
use std::sync::Arc;

/// Anything that gives the stored code of (side to move, index) of one ending.
pub trait ValueSource: Send + Sync {
    /// The ending's indexer.
    fn indexer(&self) -> &Indexer;
    /// The ending (without opening a file that is read lazily).
    fn material(&self) -> &Material {
        self.indexer().material()
    }
    /// The stored code (see [`crate::value`]).
    fn code(&self, side: Color, idx: u64) -> Result<u16, TbError>;
    /// What the stored distances count.
    fn metric(&self) -> Metric;
}

/// The codes of one side to move, one byte each when every code fits in a
/// byte (all endings up to five men but a few whose mates exceed 253 plies).
/// Generating a 5-man ending with pawns holds up to eight such sub-tables in
/// memory, so the narrow form halves the generator's peak memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Codes {
    /// One byte per code.
    Narrow(Vec<u8>),
    /// Two bytes per code.
    Wide(Vec<u16>),
}

impl Codes {
    /// The codes, narrowed to one byte each if they all fit.
    pub fn from_wide(codes: Vec<u16>) -> Codes {
        if codes.iter().all(|&c| c <= u8::MAX as u16) {
            Codes::Narrow(codes.into_iter().map(|c| c as u8).collect())
        } else {
            Codes::Wide(codes)
        }
    }

    /// The code at index `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        match self {
            Codes::Narrow(v) => v[i] as u16,
            Codes::Wide(v) => v[i],
        }
    }

    /// Replaces the code at index `i` (widening the storage if it does not fit).
    pub fn set(&mut self, i: usize, code: u16) {
        match self {
            Codes::Narrow(v) if code <= u8::MAX as u16 => v[i] = code as u8,
            Codes::Narrow(v) => {
                let mut wide: Vec<u16> = v.iter().map(|&c| c as u16).collect();
                wide[i] = code;
                *self = Codes::Wide(wide);
            }
            Codes::Wide(v) => v[i] = code,
        }
    }

    /// Number of codes.
    pub fn len(&self) -> usize {
        match self {
            Codes::Narrow(v) => v.len(),
            Codes::Wide(v) => v.len(),
        }
    }

    /// True if there are no codes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The codes in index order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// A fully decompressed table: one code per index and side to move.
pub struct TableData {
    /// The indexer (and material).
    pub indexer: Indexer,
    /// What the distances count.
    pub metric: Metric,
    /// Codes for White to move and Black to move.
    pub values: [Codes; 2],
}

impl TableData {
    /// The material.
    pub fn material(&self) -> &Material {
        self.indexer.material()
    }

    /// The value at an index, `None` if illegal or non-canonical.
    pub fn dtm(&self, side: Color, idx: u64) -> Option<Dtm> {
        Dtm::from_code(self.values[side.index()].get(idx as usize))
    }

    /// The largest distance stored (to mate or to conversion), in plies.
    pub fn max_plies(&self) -> u16 {
        crate::value::longest_plies(self.values.iter().flat_map(Codes::iter))
    }
}

impl ValueSource for TableData {
    fn indexer(&self) -> &Indexer {
        &self.indexer
    }
    fn code(&self, side: Color, idx: u64) -> Result<u16, TbError> {
        Ok(self.values[side.index()].get(idx as usize))
    }
    fn metric(&self) -> Metric {
        self.metric
    }
}

/// The material key (as [`Position::material_key`] computes it) of a material.
pub fn material_key(m: &Material) -> u64 {
    let mut key = 0;
    for (i, color) in Color::ALL.into_iter().enumerate() {
        key ^= zobrist::material(Piece::new(color, Role::King), 0);
        for role in Role::ALL {
            let n = m.sides[i].iter().filter(|&&r| r == role).count() as u32;
            for k in 0..n {
                key ^= zobrist::material(Piece::new(color, role), k);
            }
        }
    }
    key
}

/// A set of tables of one metric, probed by position.
#[derive(Clone, Default)]
pub struct TableSet {
    by_key: HashMap<u64, (Arc<dyn ValueSource>, bool)>,
    metric: Metric,
}

impl TableSet {
    /// An empty set of DTM tables.
    pub fn new() -> TableSet {
        TableSet::default()
    }

    /// An empty set of tables of `metric`.
    pub fn with_metric(metric: Metric) -> TableSet {
        TableSet { by_key: HashMap::new(), metric }
    }

    /// What the set's distances count (and what [`crate::gen::generate`] makes from it).
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Adds a table (it answers for both colour orientations of its material).
    ///
    /// # Panics
    /// If the table's metric is not the set's: a DTC value must never be read as
    /// a distance to mate (files are checked when opened, so this is a programming error).
    pub fn insert(&mut self, table: Arc<dyn ValueSource>) {
        assert_eq!(table.metric(), self.metric, "a {} table in a set of {} tables", table.metric(), self.metric);
        let m = table.material().clone();
        self.by_key.insert(material_key(&m.flipped()), (table.clone(), true));
        self.by_key.insert(material_key(&m), (table, false));
    }

    /// The materials of the tables in the set, each once, in no fixed order.
    pub fn materials(&self) -> impl Iterator<Item = &Material> + '_ {
        self.by_key.values().filter(|(_, flipped)| !flipped).map(|(t, _)| t.material())
    }

    /// True if the set has the (normalised) material.
    pub fn contains(&self, m: &Material) -> bool {
        m.count() <= 2 || self.by_key.contains_key(&material_key(m))
    }

    /// The table of a material, if present.
    pub fn get(&self, m: &Material) -> Option<&Arc<dyn ValueSource>> {
        self.by_key.get(&material_key(m)).map(|(t, _)| t)
    }

    /// Exact value of a position; `Ok(None)` if its ending is not in the set or
    /// the position has castling rights.
    pub fn probe(&self, pos: &Position) -> Result<Option<Dtm>, TbError> {
        if !pos.castling().is_empty() {
            return Ok(None);
        }
        if pos.occupied().count() == 2 {
            return Ok(Some(Dtm::Draw));
        }
        if pos.ep_square().is_some() {
            // Positions with an en-passant right are not stored: search one ply.
            return self.probe_by_moves(pos);
        }
        let Some((table, flipped)) = self.by_key.get(&pos.material_key()) else { return Ok(None) };
        let (p, side) = if *flipped {
            let m = pos.mirrored();
            let s = m.side_to_move();
            (m, s)
        } else {
            (pos.clone(), pos.side_to_move())
        };
        let Some(idx) = table.indexer().index_of(&p) else { return Ok(None) };
        Ok(Dtm::from_code(table.code(side, idx)?))
    }

    /// Value from the values of all successors (used for en-passant positions);
    /// captures and promotions are valued by the set's metric.
    pub fn probe_by_moves(&self, pos: &Position) -> Result<Option<Dtm>, TbError> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(Some(if pos.in_check() { Dtm::Loss(0) } else { Dtm::Draw }));
        }
        let mut best: Option<Dtm> = None;
        for &m in moves.iter() {
            let Some(v) = self.probe(&pos.play(m))? else { return Ok(None) };
            let v = self.metric.move_value(pos, m, v);
            if best.is_none_or(|b| v.better(b).is_gt()) {
                best = Some(v);
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::Codes;

    #[test]
    fn codes_narrow_when_they_fit_and_widen_when_set_beyond_a_byte() {
        let mut c = Codes::from_wide(vec![0, 1, 255, 7]);
        assert!(matches!(c, Codes::Narrow(_)));
        assert_eq!(c.iter().collect::<Vec<_>>(), [0, 1, 255, 7]);
        c.set(1, 300);
        assert!(matches!(c, Codes::Wide(_)));
        assert_eq!(c.iter().collect::<Vec<_>>(), [0, 300, 255, 7]);
        let w = Codes::from_wide(vec![256, 2]);
        assert_eq!((w.len(), w.get(0), w.get(1)), (2, 256, 2));
    }
}
