//! Forsyth–Edwards Notation: parsing with full validation, and writing.
//! Castling accepts standard `KQkq`, X-FEN and Shredder-FEN file letters.

use crate::bitboard::Bitboard;
use crate::castling::{CastlingMode, CastlingSide};
use crate::color::Color;
use crate::error::FenError;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::{File, Rank, Square};

/// FEN of the standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS).expect("start position FEN is valid")
    }

    /// Parses a FEN of standard chess. Halfmove clock and move number may be omitted
    /// (EPD style). Every inconsistency is reported as a [`FenError`]; nothing panics.
    /// Castling rights that standard chess cannot have (king off e1/e8, rook off the
    /// a/h corner, or no rook) are dropped; see [`CastlingMode::Standard`].
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, CastlingMode::Standard)
    }

    /// Parses a FEN, reading its castling field as `mode` says. In
    /// [`CastlingMode::Chess960`] a right with no king and rook in place for it is
    /// an error, and the position writes castling king-takes-rook.
    pub fn from_fen_with(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(FenError::MissingFields(fields.len()));
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::InvalidSide(other.to_string())),
        };
        validate_material(&pos)?;
        parse_castling(&mut pos, fields[2], mode)?;
        let ep = parse_ep(&pos, fields[3])?;
        let halfmove = match fields.get(4) {
            Some(s) => s.parse::<u32>().map_err(|_| FenError::InvalidHalfmoveClock(s.to_string()))?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(s) => match s.parse::<u32>() {
                // Some tools write move number 0; treat it as 1 like python-chess does.
                Ok(n) => n.max(1),
                Err(_) => return Err(FenError::InvalidFullmoveNumber(s.to_string())),
            },
            None => 1,
        };
        pos.set_clocks(halfmove, fullmove);
        pos.refresh();
        validate_checks(&pos)?;
        if let Some(ep) = ep {
            if pos.legal_ep_captures(ep).nonempty() {
                pos.ep = Some(ep);
                pos.refresh();
            }
        }
        Ok(pos)
    }

    /// Checks a hand-built position ([`Position::empty`] plus pieces) the way FEN
    /// parsing does and computes its keys.
    pub fn validate(mut self) -> Result<Position, FenError> {
        validate_material(&self)?;
        if (self.role_bb(Role::Pawn) & Bitboard::BACKRANKS).nonempty() {
            return Err(FenError::PawnOnBackRank);
        }
        self.refresh();
        validate_checks(&self)?;
        Ok(self)
    }

    /// Builds a position from pieces on squares (for tablebases, tests and tools).
    pub fn from_pieces(pieces: &[(Square, Piece)], side: Color) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        for &(sq, pc) in pieces {
            if pos.piece_at(sq).is_some() {
                return Err(FenError::InvalidPieceChar(pc.char()));
            }
            pos.put(sq, pc);
        }
        pos.side = side;
        pos.validate()
    }

    /// The position as FEN, castling in X-FEN for Chess960 positions.
    pub fn fen(&self) -> String {
        format!("{} {} {}", self.epd(), self.halfmove, self.fullmove)
    }

    /// The first four FEN fields (board, side, castling, en passant), as EPD uses them.
    pub fn epd(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_index(rank * 8 + file)) {
                    Some(pc) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(pc.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.char());
        s.push(' ');
        s.push_str(&self.castling_fen());
        s.push(' ');
        match self.ep {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s
    }

    fn castling_fen(&self) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            for wing in CastlingSide::ALL {
                let Some(rook) = self.castling.rook(color, wing) else { continue };
                let outermost = outermost_rook(self, color, wing) == Some(rook);
                let c = if outermost || !self.chess960 {
                    if wing == CastlingSide::King {
                        'k'
                    } else {
                        'q'
                    }
                } else {
                    rook.file().char()
                };
                s.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::WrongRankCount(ranks.len()));
    }
    for (i, rank_str) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        for c in rank_str.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::InvalidPieceChar(c));
                }
                file += d as usize;
            } else {
                let pc = Piece::from_char(c).ok_or(FenError::InvalidPieceChar(c))?;
                if file >= 8 {
                    return Err(FenError::WrongRankLength { rank: rank + 1, squares: file + 1 });
                }
                if pc.role == Role::Pawn && (rank == 0 || rank == 7) {
                    return Err(FenError::PawnOnBackRank);
                }
                pos.put(Square::from_index(rank * 8 + file), pc);
                file += 1;
            }
            if file > 8 {
                return Err(FenError::WrongRankLength { rank: rank + 1, squares: file });
            }
        }
        if file != 8 {
            return Err(FenError::WrongRankLength { rank: rank + 1, squares: file });
        }
    }
    Ok(())
}

fn validate_material(pos: &Position) -> Result<(), FenError> {
    for (color, name) in [(Color::White, "white"), (Color::Black, "black")] {
        let kings = pos.count(color, Role::King);
        if kings != 1 {
            return Err(FenError::KingCount { color: name, count: kings });
        }
        if pos.color_bb(color).count() > 16 || pos.count(color, Role::Pawn) > 8 {
            return Err(FenError::TooManyPieces(name));
        }
    }
    Ok(())
}

fn validate_checks(pos: &Position) -> Result<(), FenError> {
    let them = !pos.side;
    if pos.is_attacked_by(pos.king(them), pos.side, pos.occupied()) {
        return Err(FenError::OppositeCheck);
    }
    let n = pos.checkers.count();
    if n > 2 {
        return Err(FenError::TooManyCheckers(n));
    }
    Ok(())
}

/// The rook furthest from the king on `wing` on `color`'s back rank.
fn outermost_rook(pos: &Position, color: Color, wing: CastlingSide) -> Option<Square> {
    let king = pos.king(color);
    let back = Bitboard::rank(Rank::FIRST.relative(color));
    let rooks = pos.pieces(color, Role::Rook) & back;
    match wing {
        CastlingSide::King => rooks.filter(|r| r.file() > king.file()).last(),
        CastlingSide::Queen => rooks.into_iter().find(|r| r.file() < king.file()),
    }
}

fn parse_castling(pos: &mut Position, field: &str, mode: CastlingMode) -> Result<(), FenError> {
    pos.chess960 = mode == CastlingMode::Chess960;
    if field == "-" {
        return Ok(());
    }
    let well_formed = |c: char| matches!(c.to_ascii_lowercase(), 'k' | 'q' | 'a'..='h');
    if field.is_empty() || field.len() > 4 || !field.chars().all(well_formed) {
        return Err(FenError::InvalidCastling(field.to_string()));
    }
    for c in field.chars() {
        let color = Color::from_white(c.is_ascii_uppercase());
        let Some((wing, rook)) = castling_rook(pos, color, c) else {
            // Standard chess silently forgets what it cannot have, as python-chess does;
            // in Chess960 a right without its king and rook is a mistake worth reporting.
            match mode {
                CastlingMode::Standard => continue,
                CastlingMode::Chess960 => return Err(FenError::ImpossibleCastling(c)),
            }
        };
        let standard = pos.king(color).file() == File::E && (rook.file() == File::A || rook.file() == File::H);
        if mode == CastlingMode::Standard && !standard {
            continue;
        }
        if pos.castling.rook(color, wing).is_some() {
            return Err(FenError::InvalidCastling(field.to_string()));
        }
        pos.castling.set(color, wing, rook);
    }
    Ok(())
}

/// The wing and rook square a castling letter names for `color`, if its king stands
/// on the back rank and the rook is there: `k`/`q` the outermost rook of that wing,
/// a file letter the rook on that file.
fn castling_rook(pos: &Position, color: Color, c: char) -> Option<(CastlingSide, Square)> {
    let king = pos.king(color);
    if king.rank() != Rank::FIRST.relative(color) {
        return None;
    }
    match c.to_ascii_lowercase() {
        'k' => outermost_rook(pos, color, CastlingSide::King).map(|r| (CastlingSide::King, r)),
        'q' => outermost_rook(pos, color, CastlingSide::Queen).map(|r| (CastlingSide::Queen, r)),
        f => {
            let file = File::from_char(f)?;
            let sq = Square::from_coords(file, king.rank());
            if !pos.pieces(color, Role::Rook).contains(sq) || file == king.file() {
                return None;
            }
            let wing = if file > king.file() { CastlingSide::King } else { CastlingSide::Queen };
            Some((wing, sq))
        }
    }
}

fn parse_ep(pos: &Position, field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let err = || FenError::InvalidEnPassant(field.to_string());
    let sq: Square = field.parse().map_err(|_| err())?;
    let us = pos.side;
    if sq.rank().relative(us).index() != 5 {
        return Err(err());
    }
    // The pawn that just double-pushed must stand in front of the ep square,
    // with the ep square and the square it came from empty.
    let (pawn_sq, origin) = match us {
        Color::White => (sq.index() - 8, sq.index() + 8),
        Color::Black => (sq.index() + 8, sq.index() - 8),
    };
    let occ = pos.occupied();
    if !pos.pieces(!us, Role::Pawn).contains(Square::from_index(pawn_sq))
        || occ.contains(sq)
        || occ.contains(Square::from_index(origin))
    {
        return Err(err());
    }
    Ok(Some(sq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_round_trip() {
        let p = Position::startpos();
        assert_eq!(p.fen(), STARTPOS);
    }

    #[test]
    fn round_trips() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/8/8/8/8/4K2R w K - 5 40",
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
        }
    }

    #[test]
    fn ep_square_dropped_when_no_capture_possible() {
        let p = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        assert_eq!(p.ep_square(), None);
        assert!(p.fen().contains(" - "));
    }

    #[test]
    fn errors_are_typed() {
        use FenError::*;
        let cases: &[(&str, FenError)] = &[
            ("", MissingFields(0)),
            ("xyz", MissingFields(1)),
            ("8/8/8/8/8/8/8/8 w - - 0 1", KingCount { color: "white", count: 0 }),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", WrongRankCount(7)),
            ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", InvalidPieceChar('9')),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", InvalidSide("x".into())),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", InvalidCastling("KQkx".into())),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", InvalidCastling("KK".into())),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", InvalidEnPassant("e9".into())),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", InvalidHalfmoveClock("x".into())),
            ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", OppositeCheck),
            ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", PawnOnBackRank),
            ("rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", WrongRankLength { rank: 8, squares: 9 }),
        ];
        for (fen, want) in cases {
            assert_eq!(Position::from_fen(fen).unwrap_err(), *want, "{fen}");
        }
    }

    #[test]
    fn chess960_castling_fields() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let p = Position::from_fen_with(fen, CastlingMode::Chess960).unwrap();
        assert!(p.is_chess960());
        assert_eq!(p.castling().rook(Color::White, CastlingSide::King), Some("h1".parse().unwrap()));
        assert_eq!(p.castling().rook(Color::White, CastlingSide::Queen), Some("f1".parse().unwrap()));
        assert_eq!(p.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
        let again = Position::from_fen_with(&p.fen(), CastlingMode::Chess960).unwrap();
        assert_eq!(again.castling(), p.castling());
    }

    #[test]
    fn chess960_rights_need_king_and_rook() {
        let missing_rook = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1";
        let err = Position::from_fen_with(missing_rook, CastlingMode::Chess960).unwrap_err();
        assert_eq!(err, FenError::ImpossibleCastling('K'));
        let king_off_rank = "r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1";
        let err = Position::from_fen_with(king_off_rank, CastlingMode::Chess960).unwrap_err();
        assert_eq!(err, FenError::ImpossibleCastling('K'));
    }

    #[test]
    fn standard_mode_drops_rights_standard_chess_cannot_have() {
        let cases = [
            // King on f1/f8: every right goes, though X-FEN would read them.
            ("1r3kr1/8/8/8/8/8/8/1R3KR1 w KQkq - 0 1", "1r3kr1/8/8/8/8/8/8/1R3KR1 w - - 0 1"),
            // Rook on g1 instead of h1; the queenside right stays.
            ("r3k1r1/8/8/8/8/8/8/R3K1R1 b KQkq - 0 1", "r3k1r1/8/8/8/8/8/8/R3K1R1 b Qq - 0 1"),
            // No rook at all on h1, no king on the back rank for Black.
            ("8/4k3/8/8/8/8/8/R3K3 w KQkq - 0 1", "8/4k3/8/8/8/8/8/R3K3 w Q - 0 1"),
            // Shredder-FEN letters naming the corners are standard rights.
            ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        ];
        for (fen, want) in cases {
            let p = Position::from_fen(fen).unwrap();
            assert_eq!(p.fen(), want, "{fen}");
            assert!(!p.is_chess960(), "{fen}");
            assert_eq!(p, Position::from_fen(want).unwrap(), "{fen}");
        }
    }
}
