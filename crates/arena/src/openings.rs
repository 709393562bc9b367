//! Opening sets: start positions read from EPD (one position per line) or
//! PGN (each game's moves from its start) files.

use crate::pgn;
use bastion_core::epd::Epd;
use bastion_core::{Move, Position};
use std::path::Path;

/// One opening: a start position and moves to play from it before the
/// engines take over (empty for EPD openings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the game starts from.
    pub start: Position,
    /// Book moves played before the engines search, each legal in turn.
    pub moves: Vec<Move>,
    /// A name for reports (`id` of the EPD line, or the PGN's Opening/ECO tags).
    pub name: Option<String>,
}

impl Opening {
    /// The standard start position without book moves.
    pub fn startpos() -> Opening {
        Opening { start: Position::startpos(), moves: Vec::new(), name: None }
    }

    /// The position after the book moves.
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.start.clone(), |p, &m| p.play(m))
    }
}

/// Errors loading an opening set.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file could not be read.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        cause: std::io::Error,
    },
    /// A line or game could not be used.
    #[error("{path}:{line}: {message}")]
    Bad {
        /// The file.
        path: String,
        /// Line number (EPD) or game number (PGN), from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file holds no opening.
    #[error("{0}: no openings found")]
    Empty(String),
    /// A position is already over (no legal move), so no game can start from it.
    #[error("{path}:{line}: the position is already decided (no legal moves)")]
    Finished {
        /// The file.
        path: String,
        /// Line or game number, from 1.
        line: usize,
    },
}

/// Reads openings from `path`: `.pgn` files as games, anything else as EPD.
/// Any bad entry is an error naming its line, never a silent skip.
pub fn load(path: impl AsRef<Path>) -> Result<Vec<Opening>, OpeningsError> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    let text = bastion_core::io::read_bounded(path, bastion_core::io::TEXT_LIMIT)
        .map_err(|e| OpeningsError::Io { path: shown.clone(), cause: e.into_io() })?;
    let is_pgn = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let openings = if is_pgn { from_pgn(&text, &shown)? } else { from_epd(&String::from_utf8_lossy(&text), &shown)? };
    if openings.is_empty() {
        return Err(OpeningsError::Empty(shown));
    }
    for (i, o) in openings.iter().enumerate() {
        if !o.position().has_legal_moves() {
            return Err(OpeningsError::Finished { path: shown, line: i + 1 });
        }
    }
    Ok(openings)
}

fn from_epd(text: &str, path: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let epd =
            Epd::parse(t).map_err(|e| OpeningsError::Bad { path: path.into(), line: i + 1, message: e.to_string() })?;
        let name = epd.id().map(str::to_string);
        out.push(Opening { start: epd.position, moves: Vec::new(), name });
    }
    Ok(out)
}

fn from_pgn(bytes: &[u8], path: &str) -> Result<Vec<Opening>, OpeningsError> {
    let games = pgn::read_games(bytes).map_err(|cause| OpeningsError::Io { path: path.into(), cause })?;
    games
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            if let Some(e) = g.error {
                return Err(OpeningsError::Bad { path: path.into(), line: i + 1, message: e });
            }
            let name = match (g.header("ECO"), g.header("Opening")) {
                (Some(e), Some(o)) => Some(format!("{e} {o}")),
                (a, b) => a.or(b).map(str::to_string),
            };
            Ok(Opening { start: g.start, moves: g.moves, name })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_epd_and_pgn_and_rejects_bad_input() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let epd = dir.join("o.epd");
        std::fs::write(&epd, "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\n4k3/8/8/8/8/8/4P3/4K3 w - -\n").unwrap();
        let o = load(&epd).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].name.as_deref(), Some("e4"));
        assert!(o[1].moves.is_empty());
        let pgn = dir.join("o.pgn");
        std::fs::write(&pgn, "[ECO \"C20\"]\n\n1. e4 e5 *\n\n[Opening \"QGD\"]\n\n1. d4 d5 2. c4 e6 *\n").unwrap();
        let o = load(&pgn).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].name.as_deref(), Some("C20"));
        assert_eq!(o[1].moves.len(), 4);
        assert_eq!(o[1].position().fullmove_number(), 3);
        std::fs::write(&epd, "4k3/8/8/8/8/8/4P3/4K3 w - -\nnot a fen\n").unwrap();
        assert!(matches!(load(&epd), Err(OpeningsError::Bad { line: 2, .. })));
        std::fs::write(&epd, "7k/5Q2/6K1/8/8/8/8/8 b - -\n").unwrap();
        assert!(matches!(load(&epd), Err(OpeningsError::Finished { line: 1, .. })));
        std::fs::write(&epd, "\n").unwrap();
        assert!(matches!(load(&epd), Err(OpeningsError::Empty(_))));
        assert!(matches!(load(dir.join("none.epd")), Err(OpeningsError::Io { .. })));
    }

    #[test]
    fn shared_openings_file_loads() {
        // A copy of ../shared/data/openings.epd, the project's match openings.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.epd");
        assert_eq!(load(path).unwrap().len(), 300);
    }
}
