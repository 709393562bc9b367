//! Perft: counting leaf nodes of the legal move tree, the standard move-generator test.

use crate::movegen::GenType;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaf nodes at `depth`, counting the last ply with popcounts (bulk counting).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut p = pos.clone();
    perft_in_place::<true>(&mut p, depth, &mut move_buffers(depth))
}

/// Leaf nodes at `depth`, playing every move down to the leaves (no bulk counting).
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    let mut p = pos.clone();
    perft_in_place::<false>(&mut p, depth, &mut move_buffers(depth))
}

/// One reusable move list per ply, so no list is zeroed or copied per node.
fn move_buffers(depth: u32) -> Vec<MoveList> {
    (0..depth).map(|_| MoveList::new()).collect()
}

/// Perft with make/unmake on one position at inner plies (measured faster than
/// copy-make there). `BULK` is a const parameter so each mode is compiled on its
/// own: a runtime flag let one mode's code layout slow the other by 3-5 %.
fn perft_in_place<const BULK: bool>(pos: &mut Position, depth: u32, buffers: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if BULK && depth == 1 {
        return pos.count_legal_moves();
    }
    let Some((moves, deeper)) = buffers.split_first_mut() else { return 0 };
    moves.clear();
    pos.generate_into(GenType::All, moves);
    // Computed once here, it saves every move below the attack generation that
    // would find the checks it gives.
    let ci = pos.check_info();
    if depth == 1 {
        // Every leaf move is played (that is what "no bulk counting" measures), on a
        // copy: 7-11 % fewer cycles than make/unmake here, because the parent was
        // written long before and its wide copy does not wait on narrow stores.
        for &m in moves.iter() {
            let mut child = pos.clone();
            child.play_unchecked_with(m, &ci);
            std::hint::black_box(child.key());
        }
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        let undo = pos.make_with(m, &ci);
        nodes += perft_in_place::<BULK>(pos, depth - 1, deeper);
        pos.unmake(m, &undo);
    }
    nodes
}

/// Bulk-counting perft by copy-make, kept to compare the two move-application styles.
pub fn perft_copy_make(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => pos.legal_moves().iter().map(|&m| perft_copy_make(&pos.play(m), depth - 1)).sum(),
    }
}

/// Perft split by root move, as `perft divide` prints it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().iter().map(|&m| (m, perft(&pos.play(m), depth - 1))).collect()
}

/// One test position of a perft suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The `id` line, if any.
    pub id: String,
    /// The position (`epd` line; FEN fields beyond the fourth allowed).
    pub fen: String,
    /// `(depth, nodes)` pairs.
    pub expected: Vec<(u32, u64)>,
}

impl PerftCase {
    /// The case's position, read as Chess960 (X-FEN) when `chess960` is set or the case's
    /// id starts with `xfen-` (the suite's way to mark a Chess960 position among standard
    /// ones), else as standard chess.
    pub fn position(&self, chess960: bool) -> Result<crate::Position, crate::FenError> {
        let mode = crate::castling::CastlingMode::from(chess960 || self.id.starts_with("xfen-"));
        crate::Position::from_fen_with(&self.fen, mode)
    }
}

/// Why a perft suite file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("perft suite line {line}: {message}")]
pub struct PerftSuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses a suite in python-chess's format: `id NAME`, `epd FEN`, `perft DEPTH NODES`
/// lines; `#` starts a comment; blank lines separate cases.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, PerftSuiteError> {
    let mut cases: Vec<PerftCase> = Vec::new();
    let mut pending_id = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |message: &str| PerftSuiteError { line: i + 1, message: message.to_string() };
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "id" => pending_id = rest.to_string(),
            "epd" | "fen" => cases.push(PerftCase {
                id: std::mem::take(&mut pending_id),
                fen: rest.to_string(),
                expected: Vec::new(),
            }),
            "perft" => {
                let case = cases.last_mut().ok_or_else(|| err("perft line before any epd line"))?;
                let mut it = rest.split_whitespace();
                let depth = it.next().and_then(|d| d.parse().ok()).ok_or_else(|| err("bad depth"))?;
                let nodes = it.next().and_then(|n| n.parse().ok()).ok_or_else(|| err("bad node count"))?;
                case.expected.push((depth, nodes));
            }
            _ => return Err(err(&format!("unknown keyword {key:?}"))),
        }
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let p = Position::startpos();
        assert_eq!(perft(&p, 1), 20);
        assert_eq!(perft(&p, 2), 400);
        assert_eq!(perft(&p, 3), 8902);
        assert_eq!(perft(&p, 4), 197_281);
        assert_eq!(perft_full(&p, 4), 197_281);
    }

    #[test]
    fn kiwipete() {
        let p = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -").unwrap();
        assert_eq!(perft(&p, 1), 48);
        assert_eq!(perft(&p, 2), 2039);
        assert_eq!(perft(&p, 3), 97_862);
        assert_eq!(perft(&p, 4), 4_085_603);
        assert_eq!(perft_full(&p, 3), 97_862);
    }

    #[test]
    fn played_and_bulk_counts_agree() {
        // Promotions, en passant, discovered checks and Chess960 castling.
        for fen in [
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            // Read as Chess960 so the HFhf rights stay (X-FEN means the same for the others).
            let p = Position::from_fen_with(fen, crate::castling::CastlingMode::Chess960).unwrap();
            for depth in 1..=3 {
                assert_eq!(perft_full(&p, depth), perft(&p, depth), "{fen} depth {depth}");
                assert_eq!(perft_copy_make(&p, depth), perft(&p, depth), "{fen} depth {depth}");
            }
        }
    }

    #[test]
    fn suite_parsing() {
        let s = "# c\nid a\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\nperft 2 9\n";
        let cases = parse_suite(s).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].expected, vec![(1, 3), (2, 9)]);
        assert!(parse_suite("perft 1 2").is_err());
    }
}
