//! A client for driving external UCI chess engines.
//!
//! Used by Bastion's match runner, EPD suite runner and fortress detector to
//! talk to Stockfish, Ethereal, our own engine, or anything else that speaks
//! the Universal Chess Interface over stdin/stdout.
//!
//! Design points:
//! * stdout is read on a background thread into a channel, so every wait
//!   has a deadline and a hung engine yields [`UciError::Timeout`] instead
//!   of blocking the caller;
//! * a crashed engine (closed stdout) yields [`UciError::EngineExited`]
//!   with its exit status;
//! * search time is measured from sending `go` to the moment the reader
//!   thread received `bestmove`;
//! * the line parsers ([`parse_info`], [`parse_bestmove`], [`parse_option`])
//!   are pure functions that never panic on malformed input;
//! * the engine process is killed when its [`Engine`] handle is dropped.
//!
//! ```no_run
//! use std::time::Duration;
//! use bastion_uci_client::{Engine, GoParams};
//!
//! let mut engine = Engine::from_command_line("stockfish")?;
//! engine.set_option("Hash", "64")?;
//! engine.new_game()?;
//! engine.is_ready(Duration::from_secs(5))?;
//! engine.position("startpos", &["e2e4".to_string()])?;
//! let result = engine.search(&GoParams::depth(12), Duration::from_secs(30))?;
//! println!("{:?} {:?} in {:?}", result.best_move(), result.score(), result.elapsed);
//! # Ok::<(), bastion_uci_client::UciError>(())
//! ```

// Every public item documents itself; CI runs clippy with -D warnings.
#![warn(missing_docs)]

mod engine;
mod error;
mod go;
mod info;
mod options;
mod process;
mod search;

pub use bastion_core::score::Score;
pub use engine::builder::{EngineBuilder, StderrMode, DEFAULT_HANDSHAKE_TIMEOUT};
pub use engine::{Engine, EngineId};
pub use error::{Awaiting, Result, UciError};
pub use go::GoParams;
pub use info::{parse_bestmove, parse_info, BestMove, Info, WdlInfo};
pub use options::{parse_option, OptionKind, UciOption};
pub use search::{SearchControl, SearchResult};
