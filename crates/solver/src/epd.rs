//! Mate suites in EPD: `FEN-fields bm #N;` or `dm N;` (negative N: the side
//! to move is mated in |N|).

use bastion_core::epd::Epd;
use bastion_core::Position;

/// One problem from a suite.
#[derive(Clone, Debug)]
pub struct MateEntry {
    /// 1-based line number in the file.
    pub line: usize,
    /// The `id` operation, if any.
    pub id: Option<String>,
    /// The position.
    pub position: Position,
    /// Mate length: positive when the side to move mates, negative when it is mated.
    pub mate: i32,
}

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct EpdLineError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong.
    pub reason: String,
}

/// Reads every non-empty, non-comment line of a mate suite.
pub fn parse_suite(text: &str) -> Result<Vec<MateEntry>, EpdLineError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
            continue;
        }
        out.push(parse_line(t, i + 1)?);
    }
    Ok(out)
}

/// Reads one EPD line (core's [`Epd`] reads the record and its mate distance).
pub fn parse_line(t: &str, line: usize) -> Result<MateEntry, EpdLineError> {
    let err = |reason: String| EpdLineError { line, reason };
    let epd = Epd::parse(t).map_err(|e| err(format!("bad position: {e}")))?;
    let mate =
        epd.mate().filter(|&m| m != 0 && m.abs() <= 60).ok_or_else(|| err("no `bm #N` or `dm N` operation".into()))?;
    Ok(MateEntry { line, id: epd.id().map(str::to_string), position: epd.position, mate })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_forms() {
        let s = "7k/8/8/8/8/8/8/R6K w - - bm #1; id \"a\";\n\n6k1/8/8/8/8/8/8/6KR b - - dm 3;\n";
        let v = parse_suite(s).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].mate, 1);
        assert_eq!(v[0].id.as_deref(), Some("a"));
        assert_eq!(v[1].mate, 3);
        assert_eq!(v[1].line, 3);
        assert!(parse_suite("xx w - - bm #2;").is_err());
        assert!(parse_suite("7k/8/8/8/8/8/8/R6K w - - bm Ra8;").is_err());
        assert!(parse_suite("7k/8/8/8/8/8/8/R6K w - - bm #x;").is_err());
        assert!(parse_suite("7k/8/8/8/8/8/8/R6K w - - dm 61;").is_err());
        // Full FEN clocks before the operations are accepted.
        assert_eq!(parse_suite("7k/8/8/8/8/8/8/R6K w - - 0 1 bm #1;").unwrap()[0].mate, 1);
    }
}
