//! Games between two player configurations, and matches of such games with
//! their statistics (score with a 95% error bar, results by opening).

use crate::game::{Game, GameEnd};
use crate::player::{choose_series, PlayerOptions};
use crate::rules::Rules;
use crate::series::SeriesPosition;
use bastion_core::Color;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

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
#[derive(Clone, Debug, Default, Serialize)]
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

    /// A's share of the decided games (the measure of Janko 2015, §5.3) and its 95% error bar.
    pub fn decided_win_rate(&self) -> (f64, f64) {
        let d = (self.wins + self.losses) as f64;
        if d == 0.0 {
            return (0.0, 0.0);
        }
        let p = self.wins as f64 / d;
        (p, 1.96 * (p * (1.0 - p) / d).sqrt())
    }
}

/// A match between two player configurations, A and B.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Configuration A (its seed is replaced game by game).
    pub a: PlayerOptions,
    /// Configuration B (its seed is replaced game by game).
    pub b: PlayerOptions,
    /// Games to play; A has White in the even-numbered ones (from 0).
    pub games: u32,
    /// Turn after which a game is adjudicated a draw.
    pub max_turns: u32,
    /// First random seed; game `g` uses `seed + g × 1 000 003` (B: xor 0xABCD).
    pub seed: u64,
    /// The rules of every game.
    pub rules: Rules,
}

/// Results of the games that began with one opening.
#[derive(Clone, Debug, Default, Serialize)]
pub struct OpeningStat {
    /// Games played.
    pub games: u32,
    /// Games won by White.
    pub white_wins: u32,
    /// Games won by Black.
    pub black_wins: u32,
}

/// What a match found, from A's point of view.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    /// The counts of outcomes.
    pub stats: MatchStats,
    /// A's score as a fraction (win 1, draw ½).
    pub score_a: f64,
    /// 95% error bar of `score_a`.
    pub score_a_error95: f64,
    /// A's share of the decided games.
    pub decided_win_rate_a: f64,
    /// 95% error bar of `decided_win_rate_a`.
    pub decided_error95: f64,
    /// Results per opening (the first three tokens of the notation: `1.e4 2.d5 Nc6`).
    pub openings: BTreeMap<String, OpeningStat>,
    /// Wall time of the whole match.
    pub seconds: f64,
}

/// One finished game of a match, as [`run`] reports it.
pub struct MatchGame<'a> {
    /// Its number, from 0.
    pub index: u32,
    /// The game.
    pub game: &'a Game,
    /// Whether A had White.
    pub a_white: bool,
    /// The statistics so far, this game included.
    pub stats: &'a MatchStats,
    /// Time since the match began.
    pub elapsed: Duration,
}

/// Plays the match; `on_game` sees every finished game (for progress lines
/// or a game file) and may stop the match by returning an error.
pub fn run<E>(config: &MatchConfig, mut on_game: impl FnMut(&MatchGame) -> Result<(), E>) -> Result<MatchReport, E> {
    let mut stats = MatchStats::default();
    let mut openings: BTreeMap<String, OpeningStat> = BTreeMap::new();
    let t0 = Instant::now();
    for g in 0..config.games {
        let seed = config.seed.wrapping_add(g as u64 * 1_000_003);
        let pa = PlayerOptions { seed, ..config.a.clone() };
        let pb = PlayerOptions { seed: seed ^ 0xABCD, ..config.b.clone() };
        let a_white = g % 2 == 0;
        let (w, b) = if a_white { (&pa, &pb) } else { (&pb, &pa) };
        let game = play_game(w, b, config.rules, config.max_turns, &mut |_| {});
        stats.add(&game, a_white);
        let notation = game.notation();
        let opening: Vec<&str> = notation.split(' ').take(3).collect();
        let entry = openings.entry(opening.join(" ")).or_default();
        entry.games += 1;
        match game.result().and_then(|r| r.winner) {
            Some(Color::White) => entry.white_wins += 1,
            Some(Color::Black) => entry.black_wins += 1,
            None => {}
        }
        on_game(&MatchGame { index: g, game: &game, a_white, stats: &stats, elapsed: t0.elapsed() })?;
    }
    let (score_a, score_a_error95) = stats.score();
    let (decided_win_rate_a, decided_error95) = stats.decided_win_rate();
    Ok(MatchReport {
        stats,
        score_a,
        score_a_error95,
        decided_win_rate_a,
        decided_error95,
        openings,
        seconds: t0.elapsed().as_secs_f64(),
    })
}
