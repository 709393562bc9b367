//! Opening book for the first two turns (the lines of Janko 2015, §6.1, Table 6.1).

use crate::series::SeriesPosition;
use bastion_core::rng::Rng;
use bastion_core::Move;

/// The recommended lines: White's first move and Black's two-move replies.
pub const LINES: &[(&str, &[&str])] =
    &[("e4", &["d5 f6", "d5 Nc6", "d5 dxe4"]), ("d4", &["d5 c6", "d5 h5", "d5 Nc6", "c5 cxd4"])];

/// Dubious first moves and the replies found good against them (Janko 2015, §6.1).
pub const WIDE_LINES: &[(&str, &[&str])] =
    &[("d3", &["d5 Nf6"]), ("e3", &["e5 Nh6"]), ("f3", &["d5 c5"]), ("h4", &["e5 e4"])];

/// The book series for `pos`, if it is turn 1 or 2 of a game from the start.
pub fn book_series(pos: &SeriesPosition, wide: bool, rng: &mut Rng) -> Option<Vec<Move>> {
    let start = SeriesPosition::startpos(pos.rules());
    let lines: Vec<&(&str, &[&str])> = LINES.iter().chain(if wide { WIDE_LINES.iter() } else { [].iter() }).collect();
    if pos == &start {
        let (first, _) = lines[rng.below(lines.len())];
        return Some(vec![pos.parse_move(first).ok()?]);
    }
    if pos.turn() != 2 || pos.played() != 0 {
        return None;
    }
    for (first, replies) in &lines {
        let after = start.play(start.parse_move(first).ok()?).ok()?;
        if &after == pos {
            let reply = replies[rng.below(replies.len())];
            let mut p = pos.clone();
            let mut moves = Vec::new();
            for t in reply.split_whitespace() {
                let m = p.parse_move(t).ok()?;
                moves.push(m);
                p = p.play_unchecked(m);
            }
            return Some(moves);
        }
    }
    None
}
