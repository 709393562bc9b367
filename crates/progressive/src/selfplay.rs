//! Games between two player configurations and their statistics.

use crate::game::{Game, GameEnd};
use crate::player::{choose_series, PlayerOptions};
use crate::rules::Rules;
use crate::series::SeriesPosition;
use bastion_core::Color;

/// Plays one game; `on_turn(game)` is called at the start of every series
/// (before the player chooses) and may not change the game.
pub fn play_game(
    white: &PlayerOptions,
    black: &PlayerOptions,
    rules: Rules,
    max_turns: u32,
    on_turn: &mut dyn FnMut(&Game),
) -> Game {
    play_from(SeriesPosition::startpos(rules), white, black, max_turns, on_turn)
}

/// Plays one game from `start` (adjudicated a draw after turn `max_turns`);
/// `on_turn` as for [`play_game`].
pub fn play_from(
    start: SeriesPosition,
    white: &PlayerOptions,
    black: &PlayerOptions,
    max_turns: u32,
    on_turn: &mut dyn FnMut(&Game),
) -> Game {
    let mut game = Game::from_position(start);
    while game.result().is_none() {
        if game.position().turn() > max_turns {
            game.adjudicate(None);
            break;
        }
        on_turn(&game);
        let pos = game.position().clone();
        let opts = if pos.side_to_move() == Color::White { white } else { black };
        let mut o = opts.clone();
        o.seed = opts.seed.wrapping_add(pos.turn() as u64 * 7919);
        let Some(choice) = choose_series(&pos, &o) else { break };
        if game.play_series(&choice.moves).is_err() {
            // Cannot happen with a correct player; end the game rather than loop.
            game.adjudicate(Some(!pos.side_to_move()));
        }
    }
    game
}

/// Outcome counts of a match from A's point of view, with error bars.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MatchStats {
    /// Games played.
    pub games: u32,
    /// Wins of A.
    pub wins: u32,
    /// Losses of A.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
    /// Wins of White (any configuration).
    pub white_wins: u32,
    /// Games decided by mate.
    pub mates: u32,
}

impl MatchStats {
    /// Adds a finished game; `a_white` tells which colour A had.
    pub fn add(&mut self, game: &Game, a_white: bool) {
        self.games += 1;
        match game.result().and_then(|r| r.winner) {
            None => self.draws += 1,
            Some(w) => {
                if w == Color::White {
                    self.white_wins += 1;
                }
                if (w == Color::White) == a_white {
                    self.wins += 1;
                } else {
                    self.losses += 1;
                }
            }
        }
        if game.result().is_some_and(|r| r.end == GameEnd::Checkmate) {
            self.mates += 1;
        }
    }

    /// A's score (win 1, draw ½) as a fraction, and its 95% error bar.
    pub fn score(&self) -> (f64, f64) {
        if self.games == 0 {
            return (0.0, 0.0);
        }
        let n = self.games as f64;
        let mean = (self.wins as f64 + 0.5 * self.draws as f64) / n;
        let var = (self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2))
            / n;
        (mean, 1.96 * (var / n).sqrt())
    }

    /// A's share of the decided games (the seed's measure) and its 95% error bar.
    pub fn decided_win_rate(&self) -> (f64, f64) {
        let d = (self.wins + self.losses) as f64;
        if d == 0.0 {
            return (0.0, 0.0);
        }
        let p = self.wins as f64 / d;
        (p, 1.96 * (p * (1.0 - p) / d).sqrt())
    }
}
