//! Packed training records: a position with its search score and game result in 32 bytes,
//! in the layout of marlinformat (the record of the Marlinflow trainer, which bullet and
//! other trainers read as well), so that data made here can be trained elsewhere and
//! back.
//!
//! | bytes | field |
//! |---|---|
//! | 0–7 | occupied squares, little-endian bitboard (a1 = bit 0) |
//! | 8–23 | one 4-bit code per occupied square in ascending square order, low nibble first: 0–5 pawn, knight, bishop, rook, queen, king; 6 a rook that still has its castling right; +8 for Black |
//! | 24 | bit 7 Black to move; bits 0–6 the en-passant square, 64 for none |
//! | 25 | halfmove clock (at most 255) |
//! | 26–27 | move number, little-endian (at most 65,535) |
//! | 28–29 | White's search score in centipawns, little-endian |
//! | 30 | result: 0 Black won, 1 draw, 2 White won |
//! | 31 | unused, 0 |
//!
//! A CSV line (`fen,result,game,score`) takes about 70 bytes for the same position.

use bastion_core::castling::CastlingMode;
use bastion_core::{Color, FenError, Piece, Position, Role, Square};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;

/// Piece code of a rook that keeps a castling right.
const CASTLING_ROOK: u8 = 6;

/// Why 32 bytes are not a record.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PackError {
    /// More than 32 squares are marked occupied.
    #[error("{0} occupied squares (at most 32)")]
    TooManyPieces(u32),
    /// A piece code outside 0–6 and 8–14.
    #[error("piece code {0} on square {1}")]
    PieceCode(u8, Square),
    /// A castling rook where no castling right can be.
    #[error("castling rook on {0} without its king on the same back rank")]
    CastlingRook(Square),
    /// The en-passant byte names no square and is not 64.
    #[error("en-passant square {0} (0–63, or 64 for none)")]
    EnPassant(u8),
    /// The result byte is not 0, 1 or 2.
    #[error("result byte {0} (0, 1 or 2)")]
    Result(u8),
    /// The pieces and flags do not make a legal position.
    #[error("not a position: {0}")]
    Position(#[from] FenError),
}

/// One position with White's search score and the game's result, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedRecord(pub [u8; RECORD_BYTES]);

/// A record's contents for training: pieces and side to move without the rest of the
/// position (see [`PackedRecord::training`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingView {
    /// The pieces and the side to move (no castling rights, en passant or clocks).
    pub position: Position,
    /// Some castling right is kept.
    pub castling: bool,
    /// White's search score in centipawns.
    pub white_score: i16,
    /// 1.0 White won, 0.5 draw, 0.0 Black won.
    pub result: f32,
}

impl PackedRecord {
    /// Packs `pos` with White's score (clamped to ±32,767) and the result from White's view
    /// (1.0, 0.5 or 0.0; other values round to the nearest of them).
    pub fn pack(pos: &Position, white_score: i32, result: f64) -> PackedRecord {
        let mut b = [0u8; RECORD_BYTES];
        let occ = pos.occupied();
        b[..8].copy_from_slice(&occ.0.to_le_bytes());
        let rooks = pos.castling().rook_squares();
        for (i, sq) in occ.enumerate() {
            let piece = pos.piece_at(sq).expect("occupied square has a piece");
            let mut code = piece.role.index() as u8;
            if piece.role == Role::Rook && rooks.contains(sq) {
                code = CASTLING_ROOK;
            }
            if piece.color == Color::Black {
                code |= 8;
            }
            b[8 + i / 2] |= code << (4 * (i % 2));
        }
        let ep = pos.ep_square().map_or(64, |sq| sq.index() as u8);
        b[24] = ep | if pos.side_to_move() == Color::Black { 0x80 } else { 0 };
        b[25] = pos.halfmove_clock().min(255) as u8;
        b[26..28].copy_from_slice(&(pos.fullmove_number().min(65_535) as u16).to_le_bytes());
        b[28..30].copy_from_slice(&(white_score.clamp(-32_767, 32_767) as i16).to_le_bytes());
        b[30] = if result > 0.75 {
            2
        } else if result < 0.25 {
            0
        } else {
            1
        };
        PackedRecord(b)
    }

    /// White's search score in centipawns.
    pub fn white_score(&self) -> i16 {
        i16::from_le_bytes([self.0[28], self.0[29]])
    }

    /// The result from White's view: 1.0, 0.5 or 0.0.
    pub fn result(&self) -> Result<f32, PackError> {
        match self.0[30] {
            0 => Ok(0.0),
            1 => Ok(0.5),
            2 => Ok(1.0),
            b => Err(PackError::Result(b)),
        }
    }

    fn side_to_move(&self) -> Color {
        if self.0[24] & 0x80 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The pieces with the castling marks: `(square, piece, keeps a castling right)`.
    fn pieces(&self) -> Result<Vec<(Square, Piece, bool)>, PackError> {
        let occ = bastion_core::Bitboard(u64::from_le_bytes(self.0[..8].try_into().expect("8 bytes")));
        if occ.count() > 32 {
            return Err(PackError::TooManyPieces(occ.count()));
        }
        let mut out = Vec::with_capacity(occ.count() as usize);
        for (i, sq) in occ.enumerate() {
            let code = (self.0[8 + i / 2] >> (4 * (i % 2))) & 0xF;
            let color = if code & 8 != 0 { Color::Black } else { Color::White };
            let (role, castling) = match code & 7 {
                CASTLING_ROOK => (Role::Rook, true),
                r => (Role::from_index(r as usize).ok_or(PackError::PieceCode(code, sq))?, false),
            };
            out.push((sq, Piece::new(color, role), castling));
        }
        Ok(out)
    }

    /// The pieces and the side to move as a legal position (without castling rights, en
    /// passant and clocks), and the rooks marked as keeping a castling right.
    fn placed(&self) -> Result<(Position, Vec<Square>), PackError> {
        let pieces = self.pieces()?;
        let rooks = pieces.iter().filter(|p| p.2).map(|p| p.0).collect();
        let plain: Vec<(Square, Piece)> = pieces.iter().map(|&(sq, pc, _)| (sq, pc)).collect();
        Ok((Position::from_pieces(&plain, self.side_to_move())?, rooks))
    }

    /// The record's pieces, side to move, score and result, checked to make a legal
    /// position but without building its castling rights, en passant and clocks: what the
    /// trainer needs, several times cheaper than [`PackedRecord::unpack`].
    pub fn training(&self) -> Result<TrainingView, PackError> {
        let (position, rooks) = self.placed()?;
        Ok(TrainingView {
            position,
            castling: !rooks.is_empty(),
            white_score: self.white_score(),
            result: self.result()?,
        })
    }

    /// The whole position (castling rights, en passant, clocks), White's score and the
    /// result. A right whose rook is not in the corner, or whose king is off the e-file, is
    /// read as Chess960 castling.
    pub fn unpack(&self) -> Result<(Position, i16, f32), PackError> {
        let (placed, rooks) = self.placed()?;
        let (mut rights, mut chess960) = (String::new(), false);
        // White's rights first, then Black's, each king side before queen side, as FEN writes them.
        for color in Color::ALL {
            let back = if color == Color::White { 0 } else { 7 };
            let king = placed.king(color);
            let mut own: Vec<Square> =
                rooks.iter().copied().filter(|&sq| placed.piece_at(sq).is_some_and(|p| p.color == color)).collect();
            own.sort_by_key(|sq| std::cmp::Reverse(sq.file().index()));
            for rook in own {
                if rook.rank().index() != back || king.rank().index() != back {
                    return Err(PackError::CastlingRook(rook));
                }
                let standard = king.file().index() == 4 && (rook.file().index() == 0 || rook.file().index() == 7);
                let letter = match (standard, rook.file().index() == 7) {
                    (true, true) => 'k',
                    (true, false) => 'q',
                    (false, _) => {
                        chess960 = true;
                        rook.file().char()
                    }
                };
                rights.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
            }
        }
        let ep = match self.0[24] & 0x7F {
            64 => "-".to_string(),
            ep @ 0..=63 => Square::from_index(ep as usize).to_string(),
            ep => return Err(PackError::EnPassant(ep)),
        };
        let epd = placed.epd();
        let board = epd.split(' ').next().expect("an EPD starts with the board");
        let side = if self.side_to_move() == Color::Black { 'b' } else { 'w' };
        let rights = if rights.is_empty() { "-" } else { &rights };
        let fullmove = u16::from_le_bytes([self.0[26], self.0[27]]);
        let fen = format!("{board} {side} {rights} {ep} {} {fullmove}", self.0[25]);
        let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let pos = Position::from_fen_with(&fen, mode)?;
        Ok((pos, self.white_score(), self.result()?))
    }
}

/// How a data file holds its positions, told by its name: `.bin` files are packed
/// records, anything else `fen,result,game[,score]` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    /// Text lines `fen,result,game[,score]`.
    Csv,
    /// 32-byte [`PackedRecord`]s.
    Packed,
}

impl DataFormat {
    /// The format of the file at `path`.
    pub fn of(path: &Path) -> DataFormat {
        match path.extension() {
            Some(ext) if ext.eq_ignore_ascii_case("bin") => DataFormat::Packed,
            _ => DataFormat::Csv,
        }
    }
}

/// The index kept next to a packed file that self-play writes (`F.bin.games`): one line
/// `game end` per finished game, `end` the file's length after its records. Records have
/// no room for the game number; the index lets an interrupted run resume and cuts off
/// what was written after the last finished game.
pub fn index_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".games");
    PathBuf::from(name)
}

/// The finished games that the index of the packed file at `path` records, as
/// `(game, end)` in file order ([`index_path`]); none when there is no index. A line that
/// is not two numbers, or an end that goes backwards or splits a record, is an error.
pub fn read_index(path: &Path) -> std::io::Result<Vec<(u64, u64)>> {
    use std::io::BufRead;
    let index = index_path(path);
    let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let mut games = Vec::new();
    if !index.exists() {
        return Ok(games);
    }
    let f = std::io::BufReader::new(bastion_core::io::open_checked(&index, u64::MAX)?);
    let mut end = 0u64;
    for (i, line) in f.lines().enumerate() {
        let line = line?;
        let mut parts = line.split_whitespace().map(str::parse::<u64>);
        let (Some(Ok(game)), Some(Ok(e)), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad(format!("{} line {}: not `game end`: {line:?}", index.display(), i + 1)));
        };
        if e < end || e % RECORD_BYTES as u64 != 0 {
            return Err(bad(format!("{} line {}: end {e} after {end}", index.display(), i + 1)));
        }
        games.push((game, e));
        end = e;
    }
    Ok(games)
}

/// Calls `f` with every record of the packed file at `path`, read in blocks; returns the
/// bytes of a partial record at the end (0 for a whole file).
pub fn for_each_record(path: &Path, mut f: impl FnMut(PackedRecord)) -> std::io::Result<usize> {
    let mut file = bastion_core::io::open_checked(path, u64::MAX)?;
    let mut buf = vec![0u8; RECORD_BYTES * 32_768];
    let mut filled = 0;
    loop {
        let n = file.read(&mut buf[filled..])?;
        if n == 0 {
            return Ok(filled);
        }
        filled += n;
        let whole = filled / RECORD_BYTES * RECORD_BYTES;
        for c in buf[..whole].chunks_exact(RECORD_BYTES) {
            f(PackedRecord(c.try_into().expect("32 bytes")));
        }
        buf.copy_within(whole..filled, 0);
        filled -= whole;
    }
}

#[cfg(test)]
/// Positions from random games (for tests): castling rights, en passant and promotions all
/// occur.
pub(crate) fn random_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = bastion_core::rng::Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmove_clock() >= 100 {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn positions_survive_packing_exactly() {
        let positions = random_positions(11, 60);
        let (mut castling, mut ep) = (0, 0);
        for (i, pos) in positions.iter().enumerate() {
            let score = (i as i32 * 37) % 3000 - 1500;
            let result = [0.0, 0.5, 1.0][i % 3];
            let rec = PackedRecord::pack(pos, score, result);
            let (back, s, r) = rec.unpack().unwrap();
            assert_eq!(back.fen(), pos.fen());
            assert_eq!((s as i32, r as f64), (score, result));
            let view = rec.training().unwrap();
            assert_eq!(view.castling, !pos.castling().is_empty());
            assert_eq!(view.position.occupied(), pos.occupied());
            assert_eq!(view.position.side_to_move(), pos.side_to_move());
            castling += usize::from(view.castling);
            ep += usize::from(pos.ep_square().is_some());
        }
        assert!(castling > 100 && ep > 5, "castling {castling}, en passant {ep}");
    }

    #[test]
    fn the_layout_is_marlinformat() {
        // The start position: 32 pieces, a1 first (a white rook with its right: code 6).
        let rec = PackedRecord::pack(&Position::startpos(), -25, 1.0);
        assert_eq!(&rec.0[..8], &0xFFFF_0000_0000_FFFFu64.to_le_bytes());
        assert_eq!(&rec.0[8..12], &[0x16, 0x42, 0x25, 0x61]);
        assert_eq!(&rec.0[12..16], &[0; 4]);
        assert_eq!(&rec.0[16..20], &[0x88; 4]);
        assert_eq!(&rec.0[20..24], &[0x9E, 0xCA, 0xAD, 0xE9]);
        assert_eq!(&rec.0[24..], &[64, 0, 1, 0, 0xE7, 0xFF, 2, 0]);
    }

    #[test]
    fn chess960_rights_are_kept() {
        let fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
        let pos = Position::from_fen_with(fen, CastlingMode::Chess960).unwrap();
        let (back, _, _) = PackedRecord::pack(&pos, 0, 0.5).unpack().unwrap();
        assert_eq!(back.castling().rook_squares(), pos.castling().rook_squares());
        assert_eq!(back.epd(), pos.epd());
    }

    proptest! {
        #[test]
        fn any_bytes_give_a_record_or_an_error(bytes in proptest::collection::vec(any::<u8>(), RECORD_BYTES)) {
            let rec = PackedRecord(bytes.try_into().unwrap());
            // Never a panic; what decodes packs back to the same position.
            if let Ok((pos, score, result)) = rec.unpack() {
                let again = PackedRecord::pack(&pos, score as i32, result as f64).unpack().unwrap();
                prop_assert_eq!(again.0.fen(), pos.fen());
            }
            let _ = rec.training();
        }

        #[test]
        fn corrupted_records_never_panic(seed in any::<u64>(), flips in proptest::collection::vec((0usize..RECORD_BYTES, any::<u8>()), 1..4)) {
            let positions = random_positions(seed, 1);
            let pos = &positions[seed as usize % positions.len()];
            let mut rec = PackedRecord::pack(pos, 10, 0.5);
            for (i, b) in flips {
                rec.0[i] ^= b;
            }
            let _ = rec.unpack();
            let _ = rec.training();
        }
    }
}
