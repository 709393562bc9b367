//! Material signatures ("KRKN"): parsing, naming, normalisation so that the
//! stronger side is White, and the sub-endings that captures and promotions
//! lead into.

use bastion_core::{Color, Piece, Position, Role};
use std::fmt;

/// The pieces of an ending besides the two kings, per colour, strongest first.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Non-king roles of White, then Black, each sorted queen first.
    pub sides: [Vec<Role>; 2],
}

/// A material string that does not name an ending.
#[derive(Debug, thiserror::Error)]
#[error("bad material {0:?}: expected e.g. KRKN (two kings, pieces from QRBNP, at most 6 men)")]
pub struct MaterialError(pub String);

impl Material {
    /// Parses "KRKN" (case-insensitive; the second K starts Black's pieces).
    pub fn parse(s: &str) -> Result<Material, MaterialError> {
        let err = || MaterialError(s.to_string());
        let up = s.trim().to_ascii_uppercase();
        let rest = up.strip_prefix('K').ok_or_else(err)?;
        let (w, b) = rest.split_once('K').ok_or_else(err)?;
        let parse_side = |t: &str| -> Result<Vec<Role>, MaterialError> {
            let mut v = Vec::new();
            for c in t.chars() {
                match Role::from_char(c.to_ascii_lowercase()) {
                    Some(r) if r != Role::King => v.push(r),
                    _ => return Err(err()),
                }
            }
            v.sort_by_key(|r| std::cmp::Reverse(r.index()));
            Ok(v)
        };
        let m = Material { sides: [parse_side(w)?, parse_side(b)?] };
        if m.count() > 6 {
            return Err(err());
        }
        Ok(m)
    }

    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let side = |c: Color| {
            let mut v = Vec::new();
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn] {
                for _ in 0..pos.count(c, role) {
                    v.push(role);
                }
            }
            v
        };
        Material { sides: [side(Color::White), side(Color::Black)] }
    }

    /// Number of men, kings included.
    pub fn count(&self) -> usize {
        2 + self.sides[0].len() + self.sides[1].len()
    }

    /// True if either side has a pawn.
    pub fn has_pawns(&self) -> bool {
        self.sides.iter().flatten().any(|&r| r == Role::Pawn)
    }

    /// The same material with colours exchanged.
    pub fn flipped(&self) -> Material {
        Material { sides: [self.sides[1].clone(), self.sides[0].clone()] }
    }

    fn strength(side: &[Role]) -> (usize, i32, Vec<usize>) {
        (side.len(), side.iter().map(|r| r.value()).sum(), side.iter().map(|r| r.index()).collect())
    }

    /// True if White is at least as strong as Black (the stored orientation).
    pub fn is_normalized(&self) -> bool {
        Self::strength(&self.sides[0]) >= Self::strength(&self.sides[1])
    }

    /// The stored orientation of this material and whether colours were swapped.
    pub fn normalized(&self) -> (Material, bool) {
        if self.is_normalized() {
            (self.clone(), false)
        } else {
            (self.flipped(), true)
        }
    }

    /// Men in index order: white king, black king, White's pieces, Black's pieces.
    pub fn pieces(&self) -> Vec<Piece> {
        let mut v = vec![Piece::new(Color::White, Role::King), Piece::new(Color::Black, Role::King)];
        for (i, c) in Color::ALL.into_iter().enumerate() {
            v.extend(self.sides[i].iter().map(|&r| Piece::new(c, r)));
        }
        v
    }

    /// Normalised endings one capture or promotion away (the tables this one needs),
    /// excluding bare kings.
    pub fn children(&self) -> Vec<Material> {
        let mut out = Vec::new();
        let mut add = |m: Material| {
            if m.count() > 2 {
                let n = m.normalized().0;
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        };
        for s in 0..2 {
            // Captures remove one piece of side s.
            for i in 0..self.sides[s].len() {
                let mut m = self.clone();
                m.sides[s].remove(i);
                add(m.clone());
            }
            // Promotions of side s, with or without a capture.
            if let Some(p) = self.sides[s].iter().position(|&r| r == Role::Pawn) {
                for promo in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    let mut m = self.clone();
                    m.sides[s][p] = promo;
                    m.sides[s].sort_by_key(|r| std::cmp::Reverse(r.index()));
                    add(m.clone());
                    for j in 0..m.sides[1 - s].len() {
                        let mut c = m.clone();
                        c.sides[1 - s].remove(j);
                        add(c);
                    }
                }
            }
        }
        out
    }

    /// Every normalised ending with `n` men (kings included), pawnless first.
    pub fn all_with(n: usize) -> Vec<Material> {
        let roles = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];
        let mut multisets: Vec<Vec<Vec<Role>>> = vec![vec![vec![]]];
        for k in 1..=n.saturating_sub(2) {
            let mut v = Vec::new();
            for prev in &multisets[k - 1] {
                let start = prev.last().map_or(0, |r| roles.iter().position(|x| x == r).unwrap());
                for r in &roles[start..] {
                    let mut s = prev.clone();
                    s.push(*r);
                    v.push(s);
                }
            }
            multisets.push(v);
        }
        let mut out = Vec::new();
        let extra = n.saturating_sub(2);
        for w in 0..=extra {
            for ws in &multisets[w] {
                for bs in &multisets[extra - w] {
                    let m = Material { sides: [ws.clone(), bs.clone()] };
                    if m.is_normalized() && !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.has_pawns(), m.name()));
        out
    }

    /// The ending's name, e.g. "KRKN".
    pub fn name(&self) -> String {
        let mut s = String::from("K");
        s.extend(self.sides[0].iter().map(|r| r.upper_char()));
        s.push('K');
        s.extend(self.sides[1].iter().map(|r| r.upper_char()));
        s
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Orders endings so that every table comes after the tables it needs.
pub fn dependency_order(targets: &[Material]) -> Vec<Material> {
    fn visit(m: &Material, out: &mut Vec<Material>) {
        if out.contains(m) {
            return;
        }
        for c in m.children() {
            visit(&c, out);
        }
        out.push(m.clone());
    }
    let mut out = Vec::new();
    for t in targets {
        visit(&t.normalized().0, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_children() {
        let m = Material::parse("krkn").unwrap();
        assert_eq!(m.name(), "KRKN");
        let names: Vec<String> = m.children().iter().map(|m| m.name()).collect();
        assert_eq!(names, ["KNK", "KRK"]);
        let p = Material::parse("KPK").unwrap();
        let names: Vec<String> = p.children().iter().map(|m| m.name()).collect();
        assert_eq!(names, ["KQK", "KRK", "KBK", "KNK"]);
        assert!(Material::parse("KXK").is_err());
        assert_eq!(Material::all_with(3).len(), 5);
        // Two pieces: 5 one-sided pairs ×... every unordered assignment.
        assert_eq!(Material::all_with(4).iter().filter(|m| m.sides[1].is_empty()).count(), 15);
        assert_eq!(Material::parse("KNKR").unwrap().normalized().0.name(), "KRKN");
    }
}
