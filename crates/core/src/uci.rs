//! UCI long algebraic notation (`e2e4`, `e7e8q`, castling as `e1g1`, or `e1h1` in Chess960).

use crate::error::MoveError;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

impl Position {
    /// The move in UCI notation; castling as king-to-destination unless the
    /// position uses Chess960 notation (then king-takes-rook).
    pub fn to_uci(&self, m: Move) -> String {
        if m.is_null() {
            return "0000".to_string();
        }
        let to = if m.is_castling() && !self.chess960 { m.king_destination() } else { m.to() };
        let mut s = format!("{}{}", m.from(), to);
        if let Some(r) = m.promotion_role() {
            s.push(r.char());
        }
        s
    }

    /// Reads a UCI move and checks that it is legal here. Accepts both castling
    /// forms (`e1g1` and `e1h1`) whatever the notation mode.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        let t = text.trim();
        if !t.is_ascii() || !(4..=5).contains(&t.len()) {
            return Err(syntax());
        }
        let from: Square = t[0..2].parse().map_err(|_| syntax())?;
        let to: Square = t[2..4].parse().map_err(|_| syntax())?;
        let promo = match t.as_bytes().get(4) {
            Some(&c) => Some(crate::piece::Role::from_char(c as char).ok_or_else(syntax)?),
            None => None,
        };
        self.legal_moves_from(from)
            .iter()
            .copied()
            .find(|m| {
                m.promotion_role() == promo
                    && (m.to() == to || (m.is_castling() && m.king_destination() == to && m.from() != to))
            })
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_both_forms() {
        let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let a = p.parse_uci("e1g1").unwrap();
        let b = p.parse_uci("e1h1").unwrap();
        assert_eq!(a, b);
        assert!(a.is_castling());
        assert_eq!(p.to_uci(a), "e1g1");
        assert_eq!(p.to_uci(p.parse_uci("e1c1").unwrap()), "e1c1");
        assert!(p.parse_uci("e1e3").is_err());
        assert!(matches!(p.parse_uci("zz"), Err(MoveError::Syntax(_))));
        assert!(matches!(p.parse_uci("e1é1"), Err(MoveError::Syntax(_))));
    }
}
