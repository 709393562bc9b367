//! Extended Position Description: four FEN fields followed by operations
//! such as `bm Nf3; id "WAC.001"; dm 3; c0 "comment";`. Unknown operations are
//! kept in order so a file can be read and written back without loss.

use crate::error::{EpdError, MoveError};
use crate::moves::Move;
use crate::position::Position;
use std::fmt;

/// One EPD operation: an opcode and its operands (quoted strings unquoted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The opcode, e.g. `bm`.
    pub opcode: String,
    /// The operands, e.g. `["Nf3", "Nc3"]`.
    pub operands: Vec<String>,
}

/// A parsed EPD record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    /// The position (clocks from `hmvc`/`fmvn` operations or trailing FEN numbers).
    pub position: Position,
    /// The operations in file order.
    pub operations: Vec<Operation>,
}

impl Epd {
    /// Parses one EPD line. A full six-field FEN is accepted too.
    pub fn parse(line: &str) -> Result<Epd, EpdError> {
        // Real suites contain tabs and stray NUL bytes: treat control characters as spaces.
        let cleaned: String = line.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let line = cleaned.trim();
        let mut rest = line;
        let mut fields = Vec::with_capacity(6);
        for _ in 0..4 {
            rest = rest.trim_start();
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                break;
            }
            fields.push(&rest[..end]);
            rest = &rest[end..];
        }
        // Repair a known corruption in published suites: "- -1 12" for "- - 1 12".
        let mut repaired = None;
        if let Some(ep) = fields.get(3).copied() {
            if ep.len() > 1 && ep.starts_with('-') && ep[1..].bytes().all(|b| b.is_ascii_digit()) {
                fields[3] = "-";
                repaired = Some(&ep[1..]);
            }
        }
        fields.extend(repaired);
        // Optional halfmove and fullmove numbers, as in a full FEN.
        for _ in 0..2 - repaired.is_some() as usize {
            let t = rest.trim_start();
            let end = t.find(|c: char| c.is_whitespace() || c == ';').unwrap_or(t.len());
            if end > 0 && t[..end].bytes().all(|b| b.is_ascii_digit()) {
                fields.push(&t[..end]);
                rest = &t[end..];
            } else {
                break;
            }
        }
        let mut position = Position::from_fen(&fields.join(" "))?;
        let operations = parse_operations(rest)?;
        let clock = |name: &str| {
            operations.iter().find(|o| o.opcode == name).and_then(|o| o.operands.first()?.parse::<u32>().ok())
        };
        if let Some(h) = clock("hmvc") {
            position.set_clocks(h, position.fullmove_number());
        }
        if let Some(f) = clock("fmvn") {
            position.set_clocks(position.halfmove_clock(), f);
        }
        Ok(Epd { position, operations })
    }

    /// The operands of `opcode`, if present.
    pub fn get(&self, opcode: &str) -> Option<&[String]> {
        self.operations.iter().find(|o| o.opcode == opcode).map(|o| o.operands.as_slice())
    }

    /// Sets (replacing) an operation.
    pub fn set(&mut self, opcode: &str, operands: Vec<String>) {
        match self.operations.iter_mut().find(|o| o.opcode == opcode) {
            Some(o) => o.operands = operands,
            None => self.operations.push(Operation { opcode: opcode.to_string(), operands }),
        }
    }

    /// The `id` string.
    pub fn id(&self) -> Option<&str> {
        self.get("id")?.first().map(String::as_str)
    }

    /// Best moves (`bm`), parsed as SAN (or UCI). Mate notations like `#3` are not moves: see [`Epd::mate`].
    pub fn best_moves(&self) -> Result<Vec<Move>, MoveError> {
        self.moves_of("bm")
    }

    /// Moves to avoid (`am`).
    pub fn avoid_moves(&self) -> Result<Vec<Move>, MoveError> {
        self.moves_of("am")
    }

    fn moves_of(&self, opcode: &str) -> Result<Vec<Move>, MoveError> {
        self.get(opcode)
            .unwrap_or(&[])
            .iter()
            // `#N` is a mate distance; a lone `+` or `!` is a stray annotation.
            .filter(|s| !s.starts_with('#') && !s.chars().all(|c| "+!?".contains(c)))
            .map(|s| self.position.parse_move(s))
            .collect()
    }

    /// Mate distance in moves: from `dm N`, or `bm #N`. Negative: the side to move gets mated.
    pub fn mate(&self) -> Option<i32> {
        if let Some(n) = self.get("dm").and_then(|o| o.first()?.parse().ok()) {
            return Some(n);
        }
        self.get("bm")?.iter().find_map(|s| s.strip_prefix('#')?.parse().ok())
    }

    /// Comment `c0`..`c9`.
    pub fn comment(&self, n: u8) -> Option<&str> {
        self.get(&format!("c{n}"))?.first().map(String::as_str)
    }
}

impl fmt::Display for Epd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position.epd())?;
        for op in &self.operations {
            write!(f, " {}", op.opcode)?;
            for arg in &op.operands {
                // EPD strings cannot escape a double quote: write it as a single quote.
                let arg = arg.replace('"', "'");
                let plain = !arg.is_empty() && !arg.contains(|c: char| c.is_whitespace() || c == ';');
                if plain && op.opcode != "id" && !op.opcode.starts_with('c') {
                    write!(f, " {arg}")?;
                } else {
                    write!(f, " \"{arg}\"")?;
                }
            }
            f.write_str(";")?;
        }
        Ok(())
    }
}

fn parse_operations(text: &str) -> Result<Vec<Operation>, EpdError> {
    let mut ops = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ';') {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut opcode = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == ';' {
                break;
            }
            opcode.push(c);
            chars.next();
        }
        let mut operands = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            match chars.peek() {
                None => break,
                Some(';') => {
                    chars.next();
                    break;
                }
                Some('"') => {
                    chars.next();
                    let mut s = String::new();
                    loop {
                        match chars.next() {
                            Some('"') => break,
                            Some(c) => s.push(c),
                            None => return Err(EpdError::Operation(format!("{opcode}: unterminated string"))),
                        }
                    }
                    operands.push(s);
                }
                Some(_) => {
                    let mut s = String::new();
                    while let Some(&c) = chars.peek() {
                        if c.is_whitespace() || c == ';' {
                            break;
                        }
                        s.push(c);
                        chars.next();
                    }
                    operands.push(s);
                }
            }
        }
        if !opcode.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
            return Err(EpdError::Operation(opcode));
        }
        ops.push(Operation { opcode, operands });
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_suites_formats() {
        let e = Epd::parse(r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#).unwrap();
        assert_eq!(e.id(), Some("WAC.001"));
        assert_eq!(e.best_moves().unwrap(), vec![e.position.parse_san("Qg6").unwrap()]);
        let k = Epd::parse("rn1qkb1r/pp2pppp/5n2/3p1b2/3P4/2N1P3/PP3PPP/R1BQKBNR w KQkq - 0 1 ; bm Qb3 ").unwrap();
        assert_eq!(k.best_moves().unwrap().len(), 1);
        let m = Epd::parse("6Qk/PP1PP1np/1N1BN2P/7R/4B3/2Q5/P3KP2/6R1 b - - bm #-1;").unwrap();
        assert_eq!(m.mate(), Some(-1));
        assert!(m.best_moves().unwrap().is_empty());
        let d = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - dm 3; c0 \"a; b\"; xyz 1 2;").unwrap();
        assert_eq!(d.mate(), Some(3));
        assert_eq!(d.comment(0), Some("a; b"));
        assert_eq!(d.get("xyz").unwrap(), ["1", "2"]);
    }

    #[test]
    fn round_trip_keeps_unknown_ops() {
        let line = r#"4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+; id "x y"; foo bar baz; c1 "hello";"#;
        let e = Epd::parse(line).unwrap();
        assert_eq!(e.to_string(), line);
        assert_eq!(Epd::parse(&e.to_string()).unwrap(), e);
    }

    #[test]
    fn repairs_glued_clock() {
        let e = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K -1 12 ; bm Rh8+").unwrap();
        assert_eq!(e.position.halfmove_clock(), 1);
        assert_eq!(e.position.fullmove_number(), 12);
    }

    #[test]
    fn errors() {
        assert!(Epd::parse("").is_err());
        assert!(Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - id \"open").is_err());
        assert!(Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - 12ab;").is_err());
    }

    #[test]
    fn every_suite_in_shared_data_parses() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/epd");
        let (mut n, mut bad) = (0, Vec::new());
        for entry in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                n += 1;
                match Epd::parse(line) {
                    Ok(e) => {
                        if let Err(err) = e.best_moves() {
                            bad.push(format!("{line}: {err}"));
                        }
                    }
                    Err(err) => bad.push(format!("{line}: {err}")),
                }
            }
        }
        assert!(n > 2700);
        // kaufman.epd has a damaged move ("Bcx3"): it must be rejected with a
        // clear error rather than guessed at. (Its "- -1 12" FENs are repaired.)
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(bad[0].contains("cannot parse move \"Bcx3\""));
    }
}
