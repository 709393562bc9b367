//! Standard Algebraic Notation in both directions, matching python-chess's
//! output (`Nbd7`, `exd6`, `e8=Q+`, `O-O`, `#` for mate).

use crate::error::MoveError;
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;
use crate::square::{File, Rank, Square};

impl Position {
    /// The legal move `m` in SAN, with `+` or `#` suffix.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        let after = self.play(m);
        if after.in_check() {
            s.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        s
    }

    /// SAN without the check or mate suffix.
    pub fn san_without_suffix(&self, m: Move) -> String {
        if m.is_null() {
            return "--".to_string();
        }
        if m.is_castling() {
            return if m.to() > m.from() { "O-O".into() } else { "O-O-O".into() };
        }
        let from = m.from();
        let to = m.to();
        let Some(role) = self.role_at(from) else { return self.to_uci(m) };
        let capture = self.piece_at(to).is_some() || m.is_en_passant();
        let mut s = String::with_capacity(8);
        if role == Role::Pawn {
            if capture {
                s.push(from.file().char());
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = m.promotion_role() {
                s.push('=');
                s.push(p.upper_char());
            }
            return s;
        }
        s.push(role.upper_char());
        // Disambiguate among other pieces of the same kind that can reach `to`.
        let mut rivals = self.pieces(self.side, role).without(from);
        rivals =
            rivals.filter(|&sq| self.legal_moves_from(sq).iter().any(|o| o.to() == to && !o.is_castling())).collect();
        if rivals.nonempty() {
            let same_file = rivals.into_iter().any(|sq| sq.file() == from.file());
            let same_rank = rivals.into_iter().any(|sq| sq.rank() == from.rank());
            if !same_file {
                s.push(from.file().char());
            } else if !same_rank {
                s.push(from.rank().char());
            } else {
                s.push_str(&from.to_string());
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&to.to_string());
        s
    }

    /// Reads a SAN move and returns the legal move it names. Lenient about
    /// suffixes (`+`, `#`, `!`, `?`), `0-0` for castling, `e8Q` for promotions
    /// and a redundant `x` or disambiguation; strict about legality and ambiguity.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
        if t.is_empty() || !t.is_ascii() {
            return Err(syntax());
        }
        let legal = self.legal_moves();
        if matches!(t, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let kingside = t.len() == 3;
            return legal
                .iter()
                .copied()
                .find(|m| m.is_castling() && (m.to() > m.from()) == kingside)
                .ok_or_else(|| MoveError::Illegal(text.to_string()));
        }
        if t == "--" || t == "0000" {
            return Err(MoveError::Illegal(text.to_string()));
        }
        let bytes = t.as_bytes();
        let (role, mut rest) = match bytes[0] {
            b'N' | b'B' | b'R' | b'Q' | b'K' => (Role::from_char(bytes[0] as char).ok_or_else(syntax)?, &t[1..]),
            _ => (Role::Pawn, t),
        };
        // Promotion suffix: "=Q" or plain "Q".
        let mut promo = None;
        if role == Role::Pawn && rest.len() >= 3 {
            let b = rest.as_bytes();
            let last = b[b.len() - 1] as char;
            let before = b[b.len() - 2];
            if (before == b'=' || before.is_ascii_digit()) && "QRBNqrbn".contains(last) {
                promo = Role::from_char(last);
                rest = rest[..rest.len() - 1].trim_end_matches('=');
            }
        }
        if rest.len() < 2 {
            return Err(syntax());
        }
        let to: Square = rest[rest.len() - 2..].parse().map_err(|_| syntax())?;
        let disamb = rest[..rest.len() - 2].trim_end_matches(['x', ':', '-']);
        let (mut dfile, mut drank): (Option<File>, Option<Rank>) = (None, None);
        for c in disamb.chars() {
            if let Some(f) = File::from_char(c) {
                dfile = Some(f);
            } else if let Some(r) = Rank::from_char(c) {
                drank = Some(r);
            } else {
                return Err(syntax());
            }
        }
        let mut found: Option<Move> = None;
        for &m in legal.iter() {
            if m.is_castling() || m.to() != to || self.role_at(m.from()) != Some(role) || m.promotion_role() != promo {
                continue;
            }
            if dfile.is_some_and(|f| m.from().file() != f) || drank.is_some_and(|r| m.from().rank() != r) {
                continue;
            }
            if found.is_some() {
                return Err(MoveError::Ambiguous(text.to_string()));
            }
            found = Some(m);
        }
        found.ok_or_else(|| MoveError::Illegal(text.to_string()))
    }

    /// Reads a move in SAN or UCI notation.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_uci(text).or_else(|_| self.parse_san(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn writes_like_python_chess() {
        let p = Position::startpos();
        assert_eq!(p.san(p.parse_uci("g1f3").unwrap()), "Nf3");
        assert_eq!(p.san(p.parse_uci("e2e4").unwrap()), "e4");
        let k = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        assert_eq!(k.san(k.parse_uci("e1g1").unwrap()), "O-O");
        assert_eq!(k.san(k.parse_uci("e1c1").unwrap()), "O-O-O");
        assert_eq!(k.san(k.parse_uci("e5f7").unwrap()), "Nxf7");
        let promo = pos("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(promo.san(promo.parse_uci("e7e8q").unwrap()), "e8=Q");
        let mate = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(mate.san(mate.parse_uci("a1a8").unwrap()), "Ra8#");
        let rooks = pos("k7/8/8/8/8/8/K7/R6R w - - 0 1");
        assert_eq!(rooks.san(rooks.parse_uci("a1d1").unwrap()), "Rad1");
        let knights = pos("4k3/8/8/8/1N3N2/8/1N6/4K3 w - - 0 1");
        assert_eq!(knights.san(knights.parse_uci("b4d3").unwrap()), "Nb4d3");
        let ep = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(ep.san(ep.parse_uci("e5d6").unwrap()), "exd6");
    }

    #[test]
    fn reads_variants() {
        let p = pos("4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(p.parse_san("b8=Q").unwrap(), p.parse_uci("b7b8q").unwrap());
        assert_eq!(p.parse_san("b8Q").unwrap(), p.parse_uci("b7b8q").unwrap());
        assert_eq!(p.parse_san("b8=N").unwrap(), p.parse_uci("b7b8n").unwrap());
        assert_eq!(p.parse_san("0-0").unwrap(), p.parse_uci("e1g1").unwrap());
        assert_eq!(p.parse_san("O-O-O").unwrap(), p.parse_uci("e1c1").unwrap());
        let r = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
        assert!(matches!(r.parse_san("R1d1"), Err(MoveError::Ambiguous(_))));
        assert!(matches!(r.parse_san("Rd1"), Err(MoveError::Ambiguous(_))));
        assert_eq!(r.parse_san("Rad1").unwrap(), r.parse_uci("a1d1").unwrap());
        assert_eq!(r.parse_san("Rhxd1").unwrap(), r.parse_uci("h1d1").unwrap());
        assert!(matches!(p.parse_san("Zz9"), Err(MoveError::Syntax(_))));
        assert!(matches!(p.parse_san(""), Err(MoveError::Syntax(_))));
        let b = pos("4k3/8/8/8/8/8/1P6/4K1B1 w - - 0 1");
        // "b3" is a pawn move, not a bishop; "Bb6"-style must keep the bishop.
        assert_eq!(b.parse_san("b3").unwrap(), b.parse_uci("b2b3").unwrap());
    }

    #[test]
    fn every_legal_move_round_trips() {
        for fen in [
            crate::fen::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6",
        ] {
            let p = pos(fen);
            for &m in p.legal_moves().iter() {
                let s = p.san(m);
                assert_eq!(p.parse_san(&s).unwrap(), m, "{fen} {s}");
            }
        }
    }
}
