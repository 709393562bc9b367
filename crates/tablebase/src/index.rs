//! Position indexing with symmetry.
//!
//! Men are indexed in the order white king, black king, White's pieces
//! (queen first), Black's pieces.
//!
//! * Pawnless (scheme 1): the board's eight symmetries are used. The white
//!   king is folded into the 10-square triangle a1–d1–d4; if it stands on the
//!   diagonal a1–d4 the black king is folded onto or below the a1–h8
//!   diagonal. The 462 legal king pairs so obtained (kings neither equal nor
//!   adjacent) form the first factor; every other man adds a factor 64. When
//!   both kings are on the diagonal the position is reflected so that the
//!   smaller index results ("the first man off the diagonal lies below it", as
//!   in Bratko 1978, §3, Fig. 3).
//! * With pawns (scheme 2): only the left–right mirror applies. The white
//!   king is folded onto files a–d (32 squares), the black king takes 64,
//!   pieces 64 and pawns 48 (ranks 2–7).
//!
//! A group of *l* identical men (two white rooks, three black knights, …) is
//! numbered by the set of its squares, one digit of C(64, *l*) values
//! (C(48, *l*) for pawns) in the combinatorial number system: the sorted
//! squares s₁ < … < s_l have rank C(s₁, 1) + … + C(s_l, l). A pair of rooks
//! takes 2,016 values instead of 4,096, three rooks 41,664 instead of 262,144.
//! Tables written before like men were folded (header codes 1 and 2) gave each
//! man of a group its own digit of 64, in sorted order; [`Indexer::from_header`]
//! still reads them.
//!
//! An index that a symmetry maps to a smaller index (or, unfolded, whose like
//! men are out of order) is *non-canonical*: it is never probed and costs the
//! generator no work.

use crate::material::Material;
use bastion_core::{Color, Piece, Position, Role, Square};
use std::sync::OnceLock;

/// Which symmetry scheme an index uses (stored in file headers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Eight-fold symmetry, 462 king pairs × 64 per other man.
    Pawnless = 1,
    /// Left–right mirror, 32 × 64 king squares, 64 per piece and 48 per pawn.
    Pawns = 2,
}

const NONE: u16 = u16::MAX;

struct KingTables {
    /// Pawnless king-pair number for (wk, bk) already in canonical orientation.
    kk_index: Vec<u16>,
    /// Inverse: (wk, bk) of each pawnless king pair.
    kk_squares: Vec<(u8, u8)>,
}

fn in_triangle(sq: u8) -> bool {
    let (f, r) = (sq % 8, sq / 8);
    f <= 3 && r <= f
}

fn adjacent_or_equal(a: u8, b: u8) -> bool {
    let (fa, ra, fb, rb) = ((a % 8) as i32, (a / 8) as i32, (b % 8) as i32, (b / 8) as i32);
    (fa - fb).abs() <= 1 && (ra - rb).abs() <= 1
}

fn king_tables() -> &'static KingTables {
    static T: OnceLock<KingTables> = OnceLock::new();
    T.get_or_init(|| {
        let mut kk_index = vec![NONE; 64 * 64];
        let mut kk_squares = Vec::new();
        for wk in 0..64u8 {
            if !in_triangle(wk) {
                continue;
            }
            for bk in 0..64u8 {
                if adjacent_or_equal(wk, bk) {
                    continue;
                }
                // With the white king on the diagonal, the black king goes on or below it.
                if wk % 8 == wk / 8 && bk / 8 > bk % 8 {
                    continue;
                }
                kk_index[wk as usize * 64 + bk as usize] = kk_squares.len() as u16;
                kk_squares.push((wk, bk));
            }
        }
        debug_assert_eq!(kk_squares.len(), 462);
        KingTables { kk_index, kk_squares }
    })
}

struct TransformTables {
    /// `map[t][sq]`: the square `sq` under symmetry `t`.
    map: [[u8; 64]; 8],
    /// The symmetries that bring a white king on `sq` into the triangle a1–d1–d4.
    to_triangle: [[Option<u8>; 2]; 64],
}

fn transform_tables() -> &'static TransformTables {
    static T: OnceLock<TransformTables> = OnceLock::new();
    T.get_or_init(|| {
        let mut map = [[0u8; 64]; 8];
        let mut to_triangle = [[None; 2]; 64];
        for t in 0..8u8 {
            for sq in 0..64u8 {
                map[t as usize][sq as usize] = transform(t, sq);
                if in_triangle(transform(t, sq)) {
                    let slot = &mut to_triangle[sq as usize];
                    if slot[0].is_none() {
                        slot[0] = Some(t);
                    } else if slot[1].is_none() && transform(slot[0].unwrap(), sq) == transform(t, sq) {
                        // A second symmetry giving the same king square (diagonal cases).
                        slot[1] = Some(t);
                    }
                }
            }
        }
        TransformTables { map, to_triangle }
    })
}

/// Applies symmetry `t` (bit 2: a1–h8 reflection, bit 0: left–right, bit 1: up–down).
#[inline(always)]
pub fn transform(t: u8, sq: u8) -> u8 {
    let mut s = sq;
    if t & 4 != 0 {
        s = ((s >> 3) | (s << 3)) & 63;
    }
    if t & 1 != 0 {
        s ^= 7;
    }
    if t & 2 != 0 {
        s ^= 56;
    }
    s
}

/// Largest group of like men an index folds (six men: two kings and four).
const MAX_GROUP: usize = 4;

/// `BINOM[n][k]` = C(n, k) for n ≤ 64, k ≤ [`MAX_GROUP`].
const BINOM: [[u64; MAX_GROUP + 1]; 65] = {
    let mut t = [[0u64; MAX_GROUP + 1]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_GROUP {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The sorted square sets of each rank, for groups of 2..=[`MAX_GROUP`] men
/// over 64 or 48 squares: decoding is on the generator's hot path, so the
/// combinatorial number system is inverted by one table load.
fn unrank_table(base: u8, len: usize) -> &'static [[u8; MAX_GROUP]] {
    static T: [[OnceLock<Vec<[u8; MAX_GROUP]>>; MAX_GROUP + 1]; 2] =
        [const { [const { OnceLock::new() }; MAX_GROUP + 1] }; 2];
    T[usize::from(base == 48)][len].get_or_init(|| {
        let mut out = vec![[0u8; MAX_GROUP]; BINOM[base as usize][len] as usize];
        let mut set = [0u8; MAX_GROUP];
        for (i, s) in set.iter_mut().enumerate().take(len) {
            *s = i as u8;
        }
        loop {
            out[rank(&set[..len]) as usize] = set;
            // The next set in colexicographic order.
            let mut i = 0;
            while i < len && (if i + 1 < len { set[i] + 1 == set[i + 1] } else { set[i] + 1 == base }) {
                i += 1;
            }
            if i == len {
                break;
            }
            set[i] += 1;
            for (j, s) in set.iter_mut().enumerate().take(i) {
                *s = j as u8;
            }
        }
        out
    })
}

/// The rank of strictly increasing squares (from 0) in the combinatorial number system.
#[inline(always)]
fn rank(sorted: &[u8]) -> u64 {
    sorted.iter().enumerate().map(|(i, &s)| BINOM[s as usize][i + 1]).sum()
}

/// One digit of an index after the king pair: one man, or a folded group of like men.
#[derive(Clone, Copy, Debug)]
struct Digit {
    /// Index of the digit's first man in the index order.
    start: usize,
    /// Men in the digit (1, or the size of a folded group).
    len: usize,
    /// Squares a man of the digit may stand on: 64, or 48 for a pawn (ranks 2–7).
    base: u8,
    /// Values of the digit: `base`, or C(`base`, `len`).
    radix: u64,
}

/// Maps positions of one material to dense indices and back.
#[derive(Clone, Debug)]
pub struct Indexer {
    material: Material,
    pieces: Vec<Piece>,
    scheme: Scheme,
    /// Whether like men are folded into one digit (header codes 3 and 4).
    folded: bool,
    /// The digits after the king pair, most significant first.
    digits: Vec<Digit>,
    /// Ranges of identical consecutive men (start, len) to sort.
    groups: Vec<(usize, usize)>,
    size: u64,
}

impl Indexer {
    /// The indexer of a (normalised) material, like men folded: what `tb gen` writes.
    pub fn new(material: &Material) -> Indexer {
        Indexer::with_folding(material, true)
    }

    /// The indexer of a file whose header gives index code `code` (see
    /// [`Indexer::header_code`]), or `None` if the code does not fit the material.
    pub fn from_header(material: &Material, code: u8) -> Option<Indexer> {
        let ix = Indexer::with_folding(material, code >= 3);
        (ix.header_code() == code).then_some(ix)
    }

    /// The index's code in file headers: 1 pawnless and 2 with pawns with like
    /// men unfolded (older files), 3 and 4 the same with like men folded.
    pub fn header_code(&self) -> u8 {
        self.scheme as u8 + if self.folded { 2 } else { 0 }
    }

    /// The indexer of files written before like men were folded (header codes 1 and 2).
    pub fn unfolded(material: &Material) -> Indexer {
        Indexer::with_folding(material, false)
    }

    /// Whether like men are folded (every index `tb gen` writes now).
    pub fn folded(&self) -> bool {
        self.folded
    }

    fn with_folding(material: &Material, folded: bool) -> Indexer {
        let pieces = material.pieces();
        let scheme = if material.has_pawns() { Scheme::Pawns } else { Scheme::Pawnless };
        let mut groups = Vec::new();
        let mut digits = Vec::new();
        let mut i = 2;
        while i < pieces.len() {
            let mut j = i;
            while j + 1 < pieces.len() && pieces[j + 1] == pieces[i] {
                j += 1;
            }
            let len = j - i + 1;
            if len > 1 {
                groups.push((i, len));
            }
            let base: u8 = if pieces[i].role == Role::Pawn { 48 } else { 64 };
            if folded && len > 1 {
                assert!(len <= MAX_GROUP, "groups of more than {MAX_GROUP} like men are not indexed");
                digits.push(Digit { start: i, len, base, radix: BINOM[base as usize][len] });
            } else {
                digits.extend((i..=j).map(|start| Digit { start, len: 1, base, radix: base as u64 }));
            }
            i = j + 1;
        }
        let kings: u64 = match scheme {
            Scheme::Pawnless => 462,
            Scheme::Pawns => 32 * 64,
        };
        let size = kings * digits.iter().map(|d| d.radix).product::<u64>();
        Indexer { material: material.clone(), pieces, scheme, folded, digits, groups, size }
    }

    /// Number of indices per side to move.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The symmetry scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The men in index order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The material indexed.
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// Squares of the men (index order) for an index; squares of different
    /// digits may coincide.
    pub fn decode(&self, mut idx: u64, out: &mut [u8]) {
        for d in self.digits.iter().rev() {
            let offset = if d.base == 48 { 8 } else { 0 };
            if d.len > 1 {
                let v = idx % d.radix;
                idx /= d.radix;
                let set = &unrank_table(d.base, d.len)[v as usize];
                for k in 0..d.len {
                    out[d.start + k] = set[k] + offset;
                }
            } else if d.base == 64 {
                // Radix 64 by shifts: decoding is on the generator's hot path.
                out[d.start] = (idx & 63) as u8;
                idx >>= 6;
            } else {
                out[d.start] = (idx % 48) as u8 + 8;
                idx /= 48;
            }
        }
        match self.scheme {
            Scheme::Pawnless => {
                let (wk, bk) = king_tables().kk_squares[idx as usize];
                out[0] = wk;
                out[1] = bk;
            }
            Scheme::Pawns => {
                let bk = (idx % 64) as u8;
                let w = (idx / 64) as u8;
                out[0] = (w / 4) * 8 + w % 4;
                out[1] = bk;
            }
        }
    }

    /// The index of men on `sq` (groups sorted) with king pair `kk`, or `None`
    /// if two men of a folded group share a square.
    #[inline(always)]
    fn raw_index(&self, kk: u64, sq: &[u8]) -> Option<u64> {
        let mut idx = kk;
        for d in &self.digits {
            let offset = if d.base == 48 { 8 } else { 0 };
            let v = if d.len == 1 {
                (sq[d.start] - offset) as u64
            } else {
                let men = &sq[d.start..d.start + d.len];
                if men.windows(2).any(|w| w[0] == w[1]) {
                    return None;
                }
                men.iter().enumerate().map(|(i, &s)| BINOM[(s - offset) as usize][i + 1]).sum()
            };
            idx = idx * d.radix + v;
        }
        Some(idx)
    }

    #[inline(always)]
    fn sort_groups(&self, sq: &mut [u8]) {
        for &(s, l) in &self.groups {
            if l == 2 {
                if sq[s] > sq[s + 1] {
                    sq.swap(s, s + 1);
                }
            } else {
                sq[s..s + l].sort_unstable();
            }
        }
    }

    /// The canonical index of men on `squares` (index order), or `None` if the
    /// kings are equal or adjacent, a pawn stands on a back rank or two men of a
    /// folded group share a square.
    #[inline]
    pub fn encode(&self, squares: &[u8]) -> Option<u64> {
        let n = self.pieces.len();
        let mut t_sq = [0u8; 8];
        let tt = transform_tables();
        match self.scheme {
            Scheme::Pawnless => {
                let kt = king_tables();
                let mut best: Option<u64> = None;
                // Only the one or two symmetries that bring the white king into the triangle.
                for &t in tt.to_triangle[squares[0] as usize].iter().flatten() {
                    let map = &tt.map[t as usize];
                    let wk = map[squares[0] as usize];
                    let bk = map[squares[1] as usize];
                    let kk = kt.kk_index[wk as usize * 64 + bk as usize];
                    if kk == NONE {
                        continue;
                    }
                    for i in 2..n {
                        t_sq[i] = map[squares[i] as usize];
                    }
                    self.sort_groups(&mut t_sq[..n]);
                    let idx = self.raw_index(kk as u64, &t_sq)?;
                    best = Some(best.map_or(idx, |b: u64| b.min(idx)));
                }
                best
            }
            Scheme::Pawns => {
                let map = &tt.map[if squares[0] % 8 >= 4 { 1 } else { 0 }];
                for i in 0..n {
                    t_sq[i] = map[squares[i] as usize];
                    if self.pieces[i].role == Role::Pawn && !(8..56).contains(&t_sq[i]) {
                        return None;
                    }
                }
                if adjacent_or_equal(t_sq[0], t_sq[1]) {
                    return None;
                }
                self.sort_groups(&mut t_sq[..n]);
                let w = (t_sq[0] / 8) * 4 + t_sq[0] % 8;
                let kk = w as u64 * 64 + t_sq[1] as u64;
                self.raw_index(kk, &t_sq)
            }
        }
    }

    /// The squares of a position's men in index order (the position must have
    /// this material, in this colour orientation).
    pub fn squares_of(&self, pos: &Position, out: &mut [u8]) {
        let mut last: Option<Piece> = None;
        let mut bb = bastion_core::Bitboard::EMPTY;
        for (i, &pc) in self.pieces.iter().enumerate() {
            if last != Some(pc) {
                bb = pos.pieces(pc.color, pc.role);
                last = Some(pc);
            }
            let sq = bb.lsb();
            bb.clear(sq);
            out[i] = sq.index() as u8;
        }
    }

    /// The canonical index of a position of this material (colours as stored).
    pub fn index_of(&self, pos: &Position) -> Option<u64> {
        let mut sq = [0u8; 8];
        self.squares_of(pos, &mut sq);
        self.encode(&sq[..self.pieces.len()])
    }

    /// The position at `idx` with `side` to move, or `None` if the index is
    /// illegal (men on one square, side not to move in check) or non-canonical.
    pub fn position(&self, idx: u64, side: Color) -> Option<Position> {
        let mut sq = [0u8; 8];
        let n = self.pieces.len();
        self.decode(idx, &mut sq);
        if self.encode(&sq[..n]) != Some(idx) {
            return None;
        }
        self.position_from_squares(&sq[..n], side)
    }

    /// Builds the position with men on `squares` (not checked for canonicity).
    pub fn position_from_squares(&self, squares: &[u8], side: Color) -> Option<Position> {
        let mut pl = [(Square::A1, self.pieces[0]); 8];
        for (i, &s) in squares.iter().enumerate() {
            for &prev in &squares[..i] {
                if prev == s {
                    return None;
                }
            }
            pl[i] = (Square::from_index(s as usize), self.pieces[i]);
        }
        Position::from_pieces(&pl[..squares.len()], side).ok()
    }

    /// How many of the 8 (or 2) symmetries map the men on `squares` onto
    /// themselves; the orbit of the position has `symmetries / this` members.
    pub fn stabilizer(&self, squares: &[u8]) -> u32 {
        let n = squares.len();
        let ts: &[u8] = match self.scheme {
            Scheme::Pawnless => &[0, 1, 2, 3, 4, 5, 6, 7],
            Scheme::Pawns => &[0, 1],
        };
        let mut base = [0u8; 8];
        base[..n].copy_from_slice(squares);
        self.sort_groups(&mut base[..n]);
        let mut count = 0;
        for &t in ts {
            let mut s = [0u8; 8];
            for i in 0..n {
                s[i] = transform(t, squares[i]);
            }
            self.sort_groups(&mut s[..n]);
            if s[..n] == base[..n] {
                count += 1;
            }
        }
        count
    }

    /// Number of symmetries of the scheme (8 or 2).
    pub fn symmetries(&self) -> u32 {
        match self.scheme {
            Scheme::Pawnless => 8,
            Scheme::Pawns => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_pairs_are_462() {
        assert_eq!(king_tables().kk_squares.len(), 462);
    }

    #[test]
    fn every_rank_decodes_to_the_set_it_came_from() {
        for base in [64u8, 48] {
            for len in 2..=MAX_GROUP {
                let table = unrank_table(base, len);
                assert_eq!(table.len() as u64, BINOM[base as usize][len]);
                for (r, set) in table.iter().enumerate() {
                    assert!(set[..len].windows(2).all(|w| w[0] < w[1]) && set[len - 1] < base);
                    assert_eq!(rank(&set[..len]), r as u64);
                }
            }
        }
    }

    #[test]
    fn folded_sizes() {
        let size = |name: &str| Indexer::new(&Material::parse(name).unwrap()).size();
        assert_eq!(size("KRK"), 462 * 64);
        assert_eq!(size("KRRK"), 462 * 2016);
        assert_eq!(size("KRRRKR"), 462 * 41_664 * 64);
        assert_eq!(size("KRRKNN"), 462 * 2016 * 2016);
        assert_eq!(size("KPPK"), 32 * 64 * 1128);
        let unfolded = Indexer::from_header(&Material::parse("KRRKNN").unwrap(), 1).unwrap();
        assert_eq!(unfolded.size(), 462 * 64u64.pow(4));
    }

    #[test]
    fn header_codes() {
        let krk = Material::parse("KRRK").unwrap();
        let kpk = Material::parse("KPPK").unwrap();
        assert_eq!(Indexer::new(&krk).header_code(), 3);
        assert_eq!(Indexer::new(&kpk).header_code(), 4);
        for (m, ok) in [(&krk, [1, 3]), (&kpk, [2, 4])] {
            for code in 0..6u8 {
                assert_eq!(Indexer::from_header(m, code).is_some(), ok.contains(&code), "{code}");
            }
        }
    }

    /// Folding changes the numbering, not the positions: both indexers have the
    /// same number of legal canonical indices, and each one's positions index
    /// in the other to the same position up to symmetry.
    #[test]
    fn folded_and_unfolded_index_the_same_positions() {
        for (name, code) in [("KRRK", 1), ("KPPK", 2)] {
            let m = Material::parse(name).unwrap();
            let (folded, old) = (Indexer::new(&m), Indexer::from_header(&m, code).unwrap());
            let legal = |ix: &Indexer| (0..ix.size()).filter(|&i| ix.position(i, Color::White).is_some()).count();
            assert_eq!(legal(&folded), legal(&old), "{name}");
            for i in (0..old.size()).step_by(101) {
                let Some(pos) = old.position(i, Color::White) else { continue };
                let j = folded.index_of(&pos).expect("indexable");
                let back = folded.position(j, Color::White).expect("canonical");
                assert_eq!(old.index_of(&back), Some(i), "{name}: {}", pos.fen());
            }
        }
    }

    #[test]
    fn a_folded_group_on_one_square_has_no_index() {
        let ix = Indexer::new(&Material::parse("KRRK").unwrap());
        assert_eq!(ix.encode(&[0, 63, 20, 20]), None);
        assert!(ix.encode(&[0, 63, 20, 21]).is_some());
    }

    #[test]
    fn encode_is_invariant_under_symmetry() {
        let unfolded = |name: &str, code| Indexer::from_header(&Material::parse(name).unwrap(), code).unwrap();
        let mut indexers: Vec<Indexer> = ["KRKN", "KBBK", "KPKP", "KPPKP", "KRRRKR", "KRRKNN", "KNNNK"]
            .iter()
            .map(|name| Indexer::new(&Material::parse(name).unwrap()))
            .collect();
        indexers.push(unfolded("KBBK", 1));
        indexers.push(unfolded("KPPKP", 2));
        for ix in indexers {
            let step = (ix.size() / 20_000).max(1) | 1;
            let n = ix.pieces().len();
            let mut seen = 0;
            for idx in (0..ix.size()).step_by(step as usize) {
                let mut sq = [0u8; 8];
                ix.decode(idx, &mut sq);
                let Some(c) = ix.encode(&sq[..n]) else { continue };
                let ts: &[u8] = if ix.scheme() == Scheme::Pawns { &[0, 1] } else { &[0, 1, 2, 3, 4, 5, 6, 7] };
                for &t in ts {
                    let mut s2 = [0u8; 8];
                    for i in 0..n {
                        s2[i] = transform(t, sq[i]);
                    }
                    assert_eq!(ix.encode(&s2[..n]), Some(c));
                }
                // The canonical index decodes to squares that encode to itself.
                let mut back = [0u8; 8];
                ix.decode(c, &mut back);
                assert_eq!(ix.encode(&back[..n]), Some(c));
                seen += 1;
            }
            assert!(seen > 100);
        }
    }
}
