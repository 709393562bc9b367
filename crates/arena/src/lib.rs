//! Engine-versus-engine tooling for Bastion.
//!
//! * [`stats`]: Elo with error bars, LOS and SPRT, as fishtest, OpenBench
//!   and fastchess compute them;
//! * [`book`]: Polyglot opening books: keys, probing, writing, building
//!   from PGN and learning from match results;
//! * [`pgn`]: reading and writing PGN games;
//! * [`conversion`]: how each engine's clear advantages (and disadvantages) in PGN games ended;
//! * [`paired`]: two versions of an engine compared game by game on the same openings and
//!   colours against the same opponent;
//! * [`rating`]: ratings of many players from their games (as Ordo computes
//!   them), anchored to published ratings;
//! * [`openings`]: opening sets from EPD or PGN files;
//! * [`referee`]: plays one game between two UCI engines under the rules,
//!   with time control, forfeits and adjudication;
//! * [`tournament`]: a two-engine match (game pairs with colours reversed,
//!   concurrency, live statistics, SPRT, PGN output, book learning);
//! * [`spsa`]: tuning an engine's numeric options by SPSA in game pairs against itself;
//! * [`suite`]: EPD test suites (bm/am/dm) with time-to-solution;
//! * [`time_control`]: time controls (a clock, time, nodes or depth a move);
//! * [`time_use`]: how each engine spends its clock over a match or in PGN games.

// Every public item documents itself; CI runs clippy with -D warnings.
#![warn(missing_docs)]

pub mod book;
pub mod conversion;
pub mod openings;
pub mod paired;
pub mod pgn;
pub mod rating;
pub mod referee;
pub mod spsa;
pub mod stats;
pub mod suite;
pub mod time_control;
pub mod time_use;
pub mod tournament;
