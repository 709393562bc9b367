//! PGN import and export for the web app, through the arena's PGN reader and
//! writer ([`bastion_arena::pgn`]): the first game of a text, with the app's
//! size limits, and a game written with the tags the user gave.

use super::MAX_PLIES;
use bastion_arena::pgn::{read_first_game, PgnGame};
use bastion_core::{Game, Position};

/// Most bytes of PGN text accepted.
const MAX_PGN_LEN: usize = 200_000;

/// A game read from PGN.
pub struct ParsedPgn {
    /// Tag pairs in file order.
    pub headers: Vec<(String, String)>,
    /// The moves, from the `FEN` tag's position or the standard start.
    pub game: Game,
    /// The result: the movetext's result token, else a valid `Result` tag, else `*`.
    pub result: String,
}

/// Reads the first game of `text` (comments, NAGs and variations skipped); an
/// illegal or unreadable move, or a bad `FEN` tag, is an error.
pub fn parse(text: &str) -> Result<ParsedPgn, String> {
    if text.len() > MAX_PGN_LEN {
        return Err(format!("PGN longer than {MAX_PGN_LEN} bytes"));
    }
    let pgn = read_first_game(text.as_bytes())
        .map_err(|e| format!("unreadable PGN: {e}"))?
        .unwrap_or_else(|| PgnGame::new(Position::startpos()));
    if let Some(error) = pgn.error {
        return Err(error);
    }
    if pgn.moves.len() > MAX_PLIES {
        return Err(format!("more than {MAX_PLIES} plies"));
    }
    Ok(ParsedPgn { game: pgn.to_game(), headers: pgn.headers, result: pgn.result })
}

/// Writes `game` as PGN with the seven-tag roster filled in from `extra`. The
/// result is the game's outcome by the rules, else a valid `Result` tag, else `*`;
/// tag names keep only letters, digits and `_`; `FEN`/`SetUp` come from the game.
pub fn write(game: &Game, extra: &[(String, String)]) -> String {
    let mut pgn = PgnGame::from_game(game);
    for (k, v) in extra {
        let k: String = k.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        match k.as_str() {
            "" | "FEN" | "SetUp" => {}
            "Result" => {
                if pgn.result == "*" && matches!(v.as_str(), "1-0" | "0-1" | "1/2-1/2") {
                    pgn.result = v.clone();
                }
            }
            _ => pgn.set_header(&k, v.clone()),
        }
    }
    pgn.to_pgn()
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
        assert_eq!(p.result, "*");
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
    fn result_tag_only_for_unfinished_games() {
        let p = parse("1. e4 e5").unwrap();
        assert_eq!(p.result, "*");
        let tag = |r: &str| [("Result".to_string(), r.to_string())];
        assert!(write(&p.game, &tag("1-0")).contains("[Result \"1-0\"]"));
        assert!(write(&p.game, &tag("1-0")).trim_end().ends_with("1-0"));
        assert!(write(&p.game, &tag("bogus")).contains("[Result \"*\"]"));
        let mate = parse("1. f3 e5 2. g4 Qh4#").unwrap();
        assert!(write(&mate.game, &tag("1-0")).contains("[Result \"0-1\"]"));
        assert_eq!(parse("[Result \"1/2-1/2\"]\n\n1. e4").unwrap().result, "1/2-1/2");
    }

    #[test]
    fn errors_are_reported() {
        assert!(parse("1. e5").is_err());
        assert!(parse("1. e4 {x").is_err());
        assert!(parse("[FEN \"bad\"]\n1. e4").is_err());
        assert!(parse("1. e4 e5 2. Ke3").err().unwrap().contains("Ke3"));
        assert!(parse(&"1. e4 ".repeat(40_000)).is_err());
        assert_eq!(parse("").unwrap().game.moves().len(), 0);
    }
}
