//! Progressive (1-2-3) chess for Bastion: White plays one move, Black two,
//! White three, … This crate adds the series rules on top of the core board
//! (Italian by default, Scottish as an option), notation by turns, a
//! progressive FEN, legal-series enumeration, the A* mate finder of Janko
//! 2015 (§4) with its five heuristics, a computer player (mate search, A*
//! series search with one-turn minimax, mate prevention, endgame heuristics,
//! opening book; §3.2, §5, §6), self-play matches, the mate test set and the
//! benchmarks that measure them.
//!
//! ```
//! use bastion_progressive::{SeriesPosition, Rules, Game};
//! let mut game = Game::new(Rules::Italian);
//! game.play_text("e4").unwrap();
//! game.play_text("d5").unwrap();
//! game.play_text("Nf6").unwrap();
//! assert_eq!(game.position().series_len(), 3);
//! assert_eq!(game.notation(), "1.e4 2.d5 Nf6");
//! ```

#![warn(missing_docs)]

pub mod bench;
pub mod book;
pub mod cpu;
pub mod distance;
pub mod duration;
pub mod endgame;
pub mod enumerate;
pub mod error;
pub mod eval;
pub mod fen;
pub mod game;
pub mod keys;
pub mod mate;
pub mod player;
pub mod positions;
pub mod rules;
pub mod selfplay;
pub mod series;
pub mod testset;

pub use duration::parse_duration;
pub use enumerate::{count_series, for_each_series, legal_series, SeriesEnd};
pub use error::ProgressiveError;
pub use game::{series_text, series_uci, strip_turn_number, Game, GameEnd, GameResult};
pub use mate::{exhaustive_mate, find_mate, Heuristic, MateOptions, MateOutcome, MateResult, Variant};
pub use player::{choose_series, Choice, Phase, PlayerOptions};
pub use rules::Rules;
pub use series::{SeriesPosition, Status, MAX_SERIES};
