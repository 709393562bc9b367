//! Training positions from finished games of any source (PGN files, matches): the
//! positions worth a label, written as `fen,result,game` lines for [`crate::label`].

use crate::is_noisy;
use bastion_core::{Color, Move, Position};
use std::collections::HashSet;

/// Collects the quiet positions of finished games, each position once.
///
/// A position is kept when its side to move is not in check and the move played from it is
/// quiet: a capture or promotion means the position was in the middle of an exchange, where
/// the evaluation is not what the search would return. A position seen in several games is
/// kept once, with the result of the first.
#[derive(Debug, Default)]
pub struct QuietPositions {
    seen: HashSet<u64>,
    lines: String,
    games: usize,
}

impl QuietPositions {
    /// An empty collection.
    pub fn new() -> QuietPositions {
        QuietPositions::default()
    }

    /// Adds a finished game played from `start` with `moves`, won by `winner` (`None`: a
    /// draw). Its lines carry the result from White's view and the game's number, counted
    /// from 1 in the order games are added.
    pub fn add_game(&mut self, start: &Position, moves: &[Move], winner: Option<Color>) {
        let result = match winner {
            Some(Color::White) => "1",
            Some(Color::Black) => "0",
            None => "0.5",
        };
        self.games += 1;
        let mut pos = start.clone();
        for &m in moves {
            if !pos.in_check() && !is_noisy(&pos, m) && self.seen.insert(pos.key()) {
                self.lines.push_str(&format!("{},{result},{}\n", pos.fen(), self.games));
            }
            pos = pos.play(m);
        }
    }

    /// Games added so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Positions kept so far.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// True when no position has been kept.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// The `fen,result,game` lines, one per position kept, each ending in a newline.
    pub fn lines(&self) -> &str {
        &self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_quiet_positions_once_with_the_first_games_result() {
        let start = Position::startpos();
        let line = |ucis: &[&str]| -> Vec<Move> {
            let mut pos = start.clone();
            ucis.iter()
                .map(|u| {
                    let m = pos.parse_uci(u).expect(u);
                    pos = pos.play(m);
                    m
                })
                .collect()
        };
        let mut set = QuietPositions::new();
        // 3. Bxf7+ is a capture: the position before it is left out, and so is the one in check after.
        set.add_game(&start, &line(&["e2e4", "e7e5", "f1c4", "b8c6", "c4f7", "e8f7"]), Some(Color::White));
        assert_eq!((set.games(), set.len()), (1, 4));
        // The same opening again adds nothing new until it departs.
        set.add_game(&start, &line(&["e2e4", "c7c5", "g1f3"]), None);
        assert_eq!((set.games(), set.len()), (2, 5));
        let lines: Vec<&str> = set.lines().lines().collect();
        assert!(lines[0].starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,1,1"), "{lines:?}");
        assert!(lines[4].ends_with(",0.5,2"), "{lines:?}");
    }
}
