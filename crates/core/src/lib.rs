//! Bastion's chess core: bitboards, positions, exact legal move generation,
//! notation (FEN, EPD, SAN, UCI), game rules, static exchange evaluation,
//! retrograde un-moves and perft, and the types the other parts share: the
//! reported [`Score`], the tablebase value [`Wdl`] and prober trait
//! [`TablebaseProbe`], a seeded random generator. Everything else in Bastion
//! stands on it.
//!
//! ```
//! use bastion_core::{Position, perft::perft};
//! let pos = Position::startpos();
//! assert_eq!(perft(&pos, 3), 8902);
//! let m = pos.parse_san("Nf3").unwrap();
//! assert_eq!(pos.to_uci(m), "g1f3");
//! ```

#![warn(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod castling;
pub mod check_info;
pub mod color;
pub mod duration;
pub mod epd;
pub mod error;
pub mod fen;
pub mod fuzzing;
pub mod game;
pub mod io;
pub mod make_unmake;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod position;
pub mod rng;
pub mod san;
pub mod score;
pub mod see;
pub mod square;
pub mod tablebase;
pub mod uci;
pub mod unmove;
pub mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use castling::{Castling, CastlingSide};
pub use check_info::CheckInfo;
pub use color::Color;
pub use error::{EpdError, FenError, MoveError};
pub use game::{Game, Outcome, Termination};

pub use movegen::GenType;
pub use moves::{Move, MoveKind, MoveList};
pub use piece::{Piece, Role};
pub use position::{Keys, Position};
pub use score::Score;
pub use square::{File, Rank, Square};
pub use tablebase::{TablebaseProbe, Wdl};
