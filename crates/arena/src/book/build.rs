//! Building books from games and learning from results (OPENX style).

use super::{encode_move, polyglot_key, BookEntry, PolyglotBook};
use bastion_core::{Color, Move, Position};
use std::collections::BTreeMap;

/// Collects moves from games and turns them into a book.
///
/// Each move scores for the side that played it 2 points per win, 1 per
/// draw and 0 per loss (as Polyglot's `make-book` does); the weight is that
/// score, scaled down when needed to fit 16 bits. Moves that only ever lost
/// get weight 0 and are dropped unless [`BookBuilder::keep_losing`] is set.
#[derive(Clone, Debug)]
pub struct BookBuilder {
    max_ply: usize,
    min_games: u32,
    keep_losing: bool,
    /// (key, move) → (games, score in half points). A BTreeMap keeps the
    /// output order deterministic.
    moves: BTreeMap<(u64, u16), (u32, u64)>,
    games: u64,
}

impl BookBuilder {
    /// A builder that reads the first `max_ply` plies of each game.
    pub fn new(max_ply: usize) -> BookBuilder {
        BookBuilder { max_ply, min_games: 1, keep_losing: false, moves: BTreeMap::new(), games: 0 }
    }

    /// Only keep moves played in at least `n` games.
    pub fn min_games(mut self, n: u32) -> BookBuilder {
        self.min_games = n.max(1);
        self
    }

    /// Keep moves of weight 0 (only lost) in the book.
    pub fn keep_losing(mut self, keep: bool) -> BookBuilder {
        self.keep_losing = keep;
        self
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Adds one game: its start, its moves (legal from `start`) and the
    /// winner (`None` for a draw). Games without a result should not be added.
    pub fn add_game(&mut self, start: &Position, moves: &[Move], winner: Option<Color>) {
        self.games += 1;
        let mut pos = start.clone();
        for &m in moves.iter().take(self.max_ply) {
            if !pos.is_legal(m) {
                break;
            }
            let points = match winner {
                Some(c) if c == pos.side_to_move() => 2,
                Some(_) => 0,
                None => 1,
            };
            let slot = self.moves.entry((polyglot_key(&pos), encode_move(&pos, m))).or_insert((0, 0));
            slot.0 += 1;
            slot.1 += points;
            pos = pos.play(m);
        }
    }

    /// The book built so far.
    pub fn build(&self) -> PolyglotBook {
        let kept: Vec<_> =
            self.moves.iter().filter(|(_, &(n, s))| n >= self.min_games && (s > 0 || self.keep_losing)).collect();
        let max = kept.iter().map(|(_, &(_, s))| s).max().unwrap_or(0);
        // Scale only when some weight would not fit; keeps small books exact.
        let scale = |s: u64| -> u16 {
            if max <= u64::from(u16::MAX) {
                s as u16
            } else {
                ((s * u64::from(u16::MAX)) / max).max(u64::from(s > 0)) as u16
            }
        };
        PolyglotBook::from_entries(
            kept.into_iter()
                .map(|(&(key, raw_move), &(n, s))| BookEntry {
                    key,
                    raw_move,
                    weight: scale(s),
                    learn: pack_learn(n, s),
                })
                .collect(),
        )
    }
}

/// The learn field of entries we write: games (high 16 bits) and score in
/// half points (low 16 bits), both saturating. Polyglot ignores the field.
fn pack_learn(games: u32, half_points: u64) -> u32 {
    (games.min(0xFFFF) << 16) | half_points.min(0xFFFF) as u32
}

fn unpack_learn(learn: u32) -> (u32, u32) {
    (learn >> 16, learn & 0xFFFF)
}

/// How a book learns from a finished game (after OPENX): the learning
/// engine's book moves gain weight when it won, lose weight when it lost,
/// and its moves not yet in the book are added up to `max_ply`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnParams {
    /// Only the first `max_ply` plies of a game are learned.
    pub max_ply: usize,
    /// Weight added to a move of a won game.
    pub win_bonus: u16,
    /// Weight added to a move of a drawn game.
    pub draw_bonus: u16,
    /// Weight removed from a move of a lost game (the weight stops at 0,
    /// which takes the move out of play).
    pub loss_penalty: u16,
    /// Weight of a move added from a won or drawn game; moves added from a
    /// lost game start at 0, so they are recorded but never chosen.
    pub new_weight: u16,
}

impl Default for LearnParams {
    fn default() -> Self {
        LearnParams { max_ply: 20, win_bonus: 4, draw_bonus: 1, loss_penalty: 4, new_weight: 4 }
    }
}

/// What one call of [`PolyglotBook::learn`] changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LearnReport {
    /// Existing entries whose weight went up.
    pub raised: usize,
    /// Existing entries whose weight went down.
    pub lowered: usize,
    /// New entries.
    pub added: usize,
}

impl PolyglotBook {
    /// Learns from one game in which the book's owner played `learner`:
    /// every move the learner played from `start` within `params.max_ply`
    /// plies is rewarded or punished by `winner` (`None` = draw), and moves
    /// missing from the book are added. The other side's moves are not
    /// touched: the book describes what the learner should play.
    pub fn learn(
        &mut self,
        start: &Position,
        moves: &[Move],
        learner: Color,
        winner: Option<Color>,
        params: &LearnParams,
    ) -> LearnReport {
        let mut report = LearnReport::default();
        let mut pos = start.clone();
        let mut added = Vec::new();
        let half_points = match winner {
            Some(c) if c == learner => 2,
            Some(_) => 0,
            None => 1,
        };
        for &m in moves.iter().take(params.max_ply) {
            if !pos.is_legal(m) {
                break;
            }
            if pos.side_to_move() == learner {
                let key = polyglot_key(&pos);
                let raw = encode_move(&pos, m);
                let start_ix = self.entries.partition_point(|e| e.key < key);
                let found =
                    self.entries[start_ix..].iter_mut().take_while(|e| e.key == key).find(|e| e.raw_move == raw);
                match found {
                    Some(e) => {
                        let old = e.weight;
                        e.weight = match winner {
                            Some(c) if c == learner => e.weight.saturating_add(params.win_bonus),
                            Some(_) => e.weight.saturating_sub(params.loss_penalty),
                            None => e.weight.saturating_add(params.draw_bonus),
                        };
                        let (n, s) = unpack_learn(e.learn);
                        e.learn = pack_learn(n + 1, u64::from(s) + half_points);
                        if e.weight > old {
                            report.raised += 1;
                        } else if e.weight < old {
                            report.lowered += 1;
                        }
                    }
                    None => {
                        let weight = if half_points > 0 { params.new_weight } else { 0 };
                        added.push(BookEntry { key, raw_move: raw, weight, learn: pack_learn(1, half_points) });
                        report.added += 1;
                    }
                }
            }
            pos = pos.play(m);
        }
        if !added.is_empty() {
            let mut all = std::mem::take(&mut self.entries);
            all.extend(added);
            *self = PolyglotBook::from_entries(all);
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(pos: &Position, sans: &[&str]) -> Vec<Move> {
        let mut p = pos.clone();
        sans.iter()
            .map(|s| {
                let m = p.parse_san(s).unwrap();
                p = p.play(m);
                m
            })
            .collect()
    }

    #[test]
    fn builder_counts_results_for_the_mover() {
        let start = Position::startpos();
        let mut b = BookBuilder::new(2);
        b.add_game(&start, &line(&start, &["e4", "e5", "Nf3"]), Some(Color::White));
        b.add_game(&start, &line(&start, &["e4", "c5"]), None);
        b.add_game(&start, &line(&start, &["d4", "d5"]), Some(Color::Black));
        let book = b.build();
        let e4 = start.parse_san("e4").unwrap();
        // e4: a win (2) and a draw (1); d4 lost only: dropped.
        assert_eq!(book.probe(&start), vec![(e4, 3)]);
        let after_e4 = start.play(e4);
        let c5 = after_e4.parse_san("c5").unwrap();
        // e5 lost (0, dropped), c5 drawn (1).
        assert_eq!(book.probe(&after_e4), vec![(c5, 1)]);
        // Ply 3 (Nf3) is beyond max_ply 2; d5 won for Black (2).
        assert_eq!(book.len(), 3);
        let with_losses = b.clone().keep_losing(true).build();
        assert_eq!(with_losses.len(), 5);
        assert_eq!(b.clone().min_games(2).build().len(), 1);
    }

    #[test]
    fn learning_rewards_punishes_and_adds() {
        let start = Position::startpos();
        let mut b = BookBuilder::new(10);
        b.add_game(&start, &line(&start, &["e4", "e5", "Nf3", "Nc6"]), None);
        let mut book = b.build();
        let params = LearnParams { max_ply: 6, win_bonus: 5, draw_bonus: 1, loss_penalty: 3, new_weight: 7 };
        let game = line(&start, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
        // White (the learner) won: e4 and Nf3 gain 5, Bb5 is new (ply 5 < 6), Ba4 is beyond.
        let r = book.learn(&start, &game, Color::White, Some(Color::White), &params);
        assert_eq!(r, LearnReport { raised: 2, lowered: 0, added: 1 });
        assert_eq!(book.probe(&start), vec![(game[0], 6)]);
        let mut p = start.clone();
        for &m in &game[..4] {
            p = p.play(m);
        }
        assert_eq!(book.probe(&p), vec![(game[4], 7)]);
        // Black's moves were not touched.
        let after_e4 = start.play(game[0]);
        assert_eq!(book.probe(&after_e4), vec![(game[1], 1)]);
        // Then White loses the same line twice: weights fall and stop at 0.
        book.learn(&start, &game, Color::White, Some(Color::Black), &params);
        let r = book.learn(&start, &game, Color::White, Some(Color::Black), &params);
        assert_eq!(r.added, 0);
        assert_eq!(book.probe(&start), vec![(game[0], 0)]);
        assert_eq!(book.pick_weighted(&start, 0), None);
        // The learn field counts games and half points: 1 draw, 1 win, 2 losses.
        let e = book.entries_for_key(polyglot_key(&start))[0];
        assert_eq!(unpack_learn(e.learn), (4, 3));
    }
}
