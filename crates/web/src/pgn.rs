//! A small PGN reader and writer for the first game of a text: tag pairs,
//! SAN movetext; comments, NAGs and variations are skipped.

use crate::chess::MAX_PLIES;
use bastion_core::{Game, Position};

/// Most bytes of PGN text accepted.
const MAX_PGN_LEN: usize = 200_000;

/// A game read from PGN.
pub struct ParsedPgn {
    /// Tag pairs in file order.
    pub headers: Vec<(String, String)>,
    /// The moves, from the `FEN` tag's position or the standard start.
    pub game: Game,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
}

/// Reads the first game of `text`.
pub fn parse(text: &str) -> Result<ParsedPgn, String> {
    if text.len() > MAX_PGN_LEN {
        return Err(format!("PGN longer than {MAX_PGN_LEN} bytes"));
    }
    let mut headers = Vec::new();
    let mut movetext = String::new();
    let mut in_moves = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('%') {
            continue; // escape line
        }
        if !in_moves && t.starts_with('[') {
            headers.push(parse_tag(t)?);
            continue;
        }
        if in_moves && t.starts_with('[') {
            break; // the next game's tags
        }
        if !t.is_empty() {
            in_moves = true;
        }
        movetext.push_str(line);
        movetext.push('\n');
    }
    let start = match headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("FEN")) {
        Some((_, fen)) => Position::from_fen(fen).map_err(|e| format!("bad FEN tag: {e}"))?,
        None => Position::startpos(),
    };
    let mut game = Game::new(start);
    let mut result = None;
    for tok in tokens(&movetext)? {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok.as_str()) {
            result = Some(tok);
            break;
        }
        if game.moves().len() >= MAX_PLIES {
            return Err(format!("more than {MAX_PLIES} plies"));
        }
        let n = game.position().fullmove_number();
        let m = game.position().parse_san(&tok).map_err(|e| format!("move {n} ({tok}): {e}"))?;
        game.make(m);
    }
    Ok(ParsedPgn { headers, game, result })
}

fn parse_tag(t: &str) -> Result<(String, String), String> {
    let inner = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')).ok_or_else(|| format!("bad tag line: {t}"))?;
    let (name, rest) = inner.trim().split_once(char::is_whitespace).ok_or_else(|| format!("bad tag line: {t}"))?;
    let quoted =
        rest.trim().strip_prefix('"').and_then(|s| s.strip_suffix('"')).ok_or_else(|| format!("bad tag value: {t}"))?;
    // Undo the two escapes PGN has: \" and \\.
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.extend(chars.next());
        } else {
            value.push(c);
        }
    }
    Ok((name.to_string(), value))
}

/// Splits movetext into SAN and result tokens: drops move numbers, comments,
/// NAGs, annotation glyphs and (nested) variations.
fn tokens(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<String>, depth: usize| {
        if depth == 0 && !word.is_empty() {
            let w = word.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches('.');
            let w = if word.chars().all(|c| c.is_ascii_digit() || c == '.') { "" } else { w };
            // Keep result tokens whole ("1-0" starts with a digit).
            let full = word.as_str();
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&full) {
                out.push(full.to_string());
            } else {
                let w = w.trim_end_matches(['!', '?']);
                if !w.is_empty() && !w.starts_with('$') {
                    out.push(w.to_string());
                }
            }
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut out, depth);
                let mut closed = false;
                for c2 in chars.by_ref() {
                    if c2 == '}' {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    return Err("unclosed { comment".into());
                }
            }
            ';' => {
                flush(&mut word, &mut out, depth);
                for c2 in chars.by_ref() {
                    if c2 == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut word, &mut out, depth);
                depth += 1;
            }
            ')' => {
                flush(&mut word, &mut out, depth);
                depth = depth.checked_sub(1).ok_or("unbalanced ) in movetext")?;
            }
            c if c.is_whitespace() => flush(&mut word, &mut out, depth),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out, depth);
    if depth != 0 {
        return Err("unclosed ( variation".into());
    }
    Ok(out)
}

/// Writes `game` as PGN with the seven-tag roster filled in from `extra`.
pub fn write(game: &Game, extra: &[(String, String)]) -> String {
    let result = game.outcome(false).map(|o| o.result()).unwrap_or("*");
    let mut tags: Vec<(String, String)> =
        ["Event", "Site", "Date", "Round", "White", "Black"].iter().map(|k| (k.to_string(), "?".to_string())).collect();
    tags.push(("Result".into(), result.into()));
    for (k, v) in extra {
        let k: String = k.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if k.is_empty() || k == "FEN" || k == "SetUp" {
            continue;
        }
        match tags.iter_mut().find(|(t, _)| *t == k) {
            Some(slot) => slot.1 = v.clone(),
            None => tags.push((k, v.clone())),
        }
    }
    let start = game.start();
    if start.fen() != Position::startpos().fen() {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), start.fen()));
    }
    let mut out = String::new();
    for (k, v) in &tags {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r'], " ");
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    out.push('\n');
    // Movetext wrapped at 80 columns as the export format asks.
    let mut line = String::new();
    let push = |tok: String, out: &mut String, line: &mut String| {
        if !line.is_empty() && line.len() + 1 + tok.len() > 80 {
            out.push_str(line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&tok);
    };
    for (i, &m) in game.moves().iter().enumerate() {
        let pos = &game.positions()[i];
        let n = pos.fullmove_number();
        let san = pos.san(m);
        let tok = match pos.side_to_move() {
            bastion_core::Color::White => format!("{n}. {san}"),
            bastion_core::Color::Black if i == 0 => format!("{n}... {san}"),
            bastion_core::Color::Black => san,
        };
        push(tok, &mut out, &mut line);
    }
    push(result.to_string(), &mut out, &mut line);
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_comments_and_variations() {
        let text =
            "[Event \"Test\"]\n[White \"A\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6!? 3. Bb5 a6 *\n";
        let p = parse(text).unwrap();
        assert_eq!(p.game.moves().len(), 6);
        assert_eq!(p.result.as_deref(), Some("*"));
        let out = write(&p.game, &p.headers);
        assert!(out.contains("[Event \"Test\"]"));
        assert!(out.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"), "{out}");
        let again = parse(&out).unwrap();
        assert_eq!(again.game.position().fen(), p.game.position().fen());
    }

    #[test]
    fn fen_tag_and_black_first() {
        let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 2. e4 *";
        let p = parse(text).unwrap();
        assert_eq!(p.game.moves().len(), 2);
        let out = write(&p.game, &[]);
        assert!(out.contains("1... Kd7 2. e4"), "{out}");
        assert!(out.contains("[SetUp \"1\"]"));
    }

    #[test]
    fn errors_are_reported() {
        assert!(parse("1. e5").is_err());
        assert!(parse("1. e4 (e5").is_err());
        assert!(parse("1. e4 {x").is_err());
        assert!(parse("[FEN \"bad\"]\n1. e4").is_err());
    }
}
