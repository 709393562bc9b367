//! Error types of the core library.

use thiserror::Error;

/// Why a FEN (or the board part of an EPD line) was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// Fewer than the four required fields.
    #[error("FEN needs at least 4 fields (board, side, castling, en passant), found {0}")]
    MissingFields(usize),
    /// More than six fields.
    #[error("FEN has {0} fields; at most 6 are allowed")]
    TooManyFields(usize),
    /// The board field does not have 8 ranks.
    #[error("board has {0} ranks; it needs 8 separated by '/'")]
    WrongRankCount(usize),
    /// A rank describes more or fewer than 8 squares.
    #[error("rank {rank} describes {squares} squares instead of 8")]
    WrongRankLength {
        /// Rank number 1..8.
        rank: usize,
        /// Squares it described.
        squares: usize,
    },
    /// An unknown character in the board field.
    #[error("invalid character {0:?} in the board field")]
    InvalidPieceChar(char),
    /// The side-to-move field is not `w` or `b`.
    #[error("side to move must be 'w' or 'b', found {0:?}")]
    InvalidSide(String),
    /// The castling field is malformed.
    #[error("invalid castling field {0:?}")]
    InvalidCastling(String),
    /// A castling right with no king or rook in place.
    #[error("castling right {0:?} has no king and rook in place for it")]
    ImpossibleCastling(char),
    /// The en-passant field is malformed or impossible.
    #[error("invalid en-passant square {0:?}")]
    InvalidEnPassant(String),
    /// The halfmove clock is not a number.
    #[error("invalid halfmove clock {0:?}")]
    InvalidHalfmoveClock(String),
    /// The fullmove number is not a positive number.
    #[error("invalid fullmove number {0:?}")]
    InvalidFullmoveNumber(String),
    /// A side does not have exactly one king.
    #[error("{color} has {count} kings; exactly one is required")]
    KingCount {
        /// "white" or "black".
        color: &'static str,
        /// Kings found.
        count: u32,
    },
    /// A pawn on rank 1 or 8.
    #[error("pawn on the first or last rank")]
    PawnOnBackRank,
    /// More than 16 pieces or 8 pawns for one side.
    #[error("{0} has too many pieces or pawns")]
    TooManyPieces(&'static str),
    /// The side not to move is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// More than two pieces give check, impossible in a game.
    #[error("the king is attacked by {0} pieces; at most 2 is possible")]
    TooManyCheckers(u32),
}

/// Why a move in text form could not be read or is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not a move in the expected notation.
    #[error("cannot parse move {0:?}")]
    Syntax(String),
    /// Well formed but not legal in the position.
    #[error("illegal move {0:?} in this position")]
    Illegal(String),
    /// More than one legal move matches the SAN.
    #[error("ambiguous move {0:?}")]
    Ambiguous(String),
}

/// Why an EPD line was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EpdError {
    /// The position part is bad.
    #[error("bad EPD position: {0}")]
    Fen(#[from] FenError),
    /// An operation is malformed (for example an unterminated string).
    #[error("bad EPD operation {0:?}")]
    Operation(String),
}
