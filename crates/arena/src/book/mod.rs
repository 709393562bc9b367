//! Polyglot opening books (`.bin`): keys, reading, probing, writing,
//! building from games and learning from match results.
//!
//! A Polyglot book is a sorted array of 16-byte big-endian entries
//! `(key: u64, move: u16, weight: u16, learn: u32)`. The key is a Zobrist
//! hash with the format's own fixed random table ([`polyglot_key`]), so a
//! book written by any tool can be read by any other.
//!
//! ```
//! use bastion_arena::book::{polyglot_key, PolyglotBook, BookEntry};
//! use bastion_core::Position;
//!
//! let start = Position::startpos();
//! assert_eq!(polyglot_key(&start), 0x463b96181691fc9c);
//! let e4 = start.parse_san("e4").unwrap();
//! let book = PolyglotBook::from_entries(vec![BookEntry::new(polyglot_key(&start), &start, e4, 10)]);
//! assert_eq!(book.probe(&start), vec![(e4, 10)]);
//! assert_eq!(book.pick_weighted(&start, 12345), Some(e4));
//! ```

mod build;
mod random;
mod tools;

pub use build::{BookBuilder, LearnParams, LearnReport};
pub use tools::{BookProbe, BuildSummary, LearnSummary, ProbedMove};

use bastion_core::{CastlingSide, Color, Move, Position, Role, Square};
use random::RANDOM64;
use std::path::{Path, PathBuf};

/// Size of one book entry on disk.
pub const ENTRY_SIZE: usize = 16;

/// The largest book file read (1 GiB, 67 million entries): a bound so that a device or a
/// runaway file named as a book is refused rather than read without limit.
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// Errors reading or writing books.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read or written.
    #[error("{path}: {cause}")]
    Io {
        /// The book file.
        path: PathBuf,
        /// The underlying error.
        cause: std::io::Error,
    },
    /// The path is not a regular file, or the file is larger than [`MAX_BOOK_BYTES`].
    #[error("{0}")]
    Refused(bastion_core::io::BoundedReadError),
    /// The file size is not a multiple of 16 bytes, so it is not a Polyglot book.
    #[error("{path}: size {size} is not a multiple of 16 bytes; not a Polyglot book")]
    BadSize {
        /// The book file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
}

/// One book entry as stored on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BookEntry {
    /// Polyglot key of the position.
    pub key: u64,
    /// The move in Polyglot encoding (see [`encode_move`]).
    pub raw_move: u16,
    /// Relative weight: how often the move should be chosen.
    pub weight: u16,
    /// The learn field; Polyglot leaves it 0, we keep whatever a book holds.
    pub learn: u32,
}

impl BookEntry {
    /// An entry for the legal move `m` of `pos`, whose key is `key`.
    pub fn new(key: u64, pos: &Position, m: Move, weight: u16) -> BookEntry {
        BookEntry { key, raw_move: encode_move(pos, m), weight, learn: 0 }
    }

    fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let mut b = [0u8; ENTRY_SIZE];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> BookEntry {
        let mut k = [0u8; 8];
        k.copy_from_slice(&b[0..8]);
        BookEntry {
            key: u64::from_be_bytes(k),
            raw_move: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes([b[12], b[13], b[14], b[15]]),
        }
    }
}

/// Index of a piece kind in Polyglot's table: black pawn 0, white pawn 1,
/// black knight 2, … white king 11.
fn kind_index(color: Color, role: Role) -> usize {
    2 * role.index() + usize::from(color == Color::White)
}

/// The Polyglot key of a position.
///
/// The en-passant file is hashed when a pawn of the side to move stands
/// next to the double-pushed pawn, as the format says. One difference with
/// tools that track the raw FEN field: our positions drop an en-passant
/// square whose only captures are illegal (pinned pawn), so such rare
/// positions hash without it.
pub fn polyglot_key(pos: &Position) -> u64 {
    let mut key = 0u64;
    for sq in pos.occupied() {
        if let Some(pc) = pos.piece_at(sq) {
            key ^= RANDOM64[64 * kind_index(pc.color, pc.role) + sq.index()];
        }
    }
    let castling = pos.castling();
    for (i, (color, side)) in [
        (Color::White, CastlingSide::King),
        (Color::White, CastlingSide::Queen),
        (Color::Black, CastlingSide::King),
        (Color::Black, CastlingSide::Queen),
    ]
    .into_iter()
    .enumerate()
    {
        if castling.rook(color, side).is_some() {
            key ^= RANDOM64[768 + i];
        }
    }
    if let Some(ep) = pos.ep_square() {
        key ^= RANDOM64[772 + ep.file().index()];
    }
    if pos.side_to_move() == Color::White {
        key ^= RANDOM64[780];
    }
    key
}

/// Encodes a move the Polyglot way: to-file (bits 0–2), to-row (3–5),
/// from-file (6–8), from-row (9–11), promotion piece (12–14: 1 knight …
/// 4 queen). Castling is written king-takes-rook (`e1h1`), as our moves are.
pub fn encode_move(_pos: &Position, m: Move) -> u16 {
    let (from, to) = (m.from().index() as u16, m.to().index() as u16);
    let promo = match m.promotion_role() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    to | (from << 6) | (promo << 12)
}

/// Decodes a Polyglot move into the legal move of `pos` it names, if any.
/// Accepts castling both as king-takes-rook (the standard) and as the king's
/// two-square step that some writers use.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let to = Square::from_index((raw & 63) as usize);
    let from = Square::from_index(((raw >> 6) & 63) as usize);
    let promo = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    pos.legal_moves_from(from)
        .iter()
        .copied()
        .find(|m| m.promotion_role() == promo && (m.to() == to || (m.is_castling() && m.king_destination() == to)))
}

/// An opening book held in memory, sorted by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolyglotBook {
    entries: Vec<BookEntry>,
}

impl PolyglotBook {
    /// Reads a `.bin` book. Unsorted books (some writers) are sorted on load.
    pub fn open(path: impl AsRef<Path>) -> Result<PolyglotBook, BookError> {
        let path = path.as_ref();
        use bastion_core::io::BoundedReadError;
        let bytes = bastion_core::io::read_bounded(path, MAX_BOOK_BYTES).map_err(|e| match e {
            BoundedReadError::Io { path, source } => BookError::Io { path, cause: source },
            refused => BookError::Refused(refused),
        })?;
        if bytes.len() % ENTRY_SIZE != 0 {
            return Err(BookError::BadSize { path: path.to_path_buf(), size: bytes.len() as u64 });
        }
        let entries = bytes.chunks_exact(ENTRY_SIZE).map(BookEntry::from_bytes).collect();
        Ok(PolyglotBook::from_entries(entries))
    }

    /// A book from entries in any order.
    pub fn from_entries(mut entries: Vec<BookEntry>) -> PolyglotBook {
        // Stable by key only: the order of moves within a key is kept.
        entries.sort_by_key(|e| e.key);
        PolyglotBook { entries }
    }

    /// All entries, sorted by key.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for a book without entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries stored for `key` (any order the file had).
    pub fn entries_for_key(&self, key: u64) -> &[BookEntry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book moves for `pos` with their weights, heaviest first. Entries
    /// whose move is not legal here (a key collision or a bad book) are skipped.
    pub fn probe(&self, pos: &Position) -> Vec<(Move, u16)> {
        let mut out: Vec<(Move, u16)> = self
            .entries_for_key(polyglot_key(pos))
            .iter()
            .filter_map(|e| decode_move(pos, e.raw_move).map(|m| (m, e.weight)))
            .collect();
        out.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        out
    }

    /// The heaviest book move, if any.
    pub fn pick_best(&self, pos: &Position) -> Option<Move> {
        self.probe(pos).into_iter().find(|&(_, w)| w > 0).map(|(m, _)| m)
    }

    /// A book move chosen with probability proportional to its weight.
    /// `random` is any uniformly distributed number (the caller owns the
    /// generator, so engines and tests stay reproducible). Moves of weight 0
    /// are never chosen; `None` when the position has no playable entry.
    pub fn pick_weighted(&self, pos: &Position, random: u64) -> Option<Move> {
        let moves = self.probe(pos);
        let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut r = random % total;
        for (m, w) in moves {
            if r < u64::from(w) {
                return Some(m);
            }
            r -= u64::from(w);
        }
        None
    }

    /// Writes the book to `path` atomically (a temporary file renamed into
    /// place), so an interrupted write never leaves a corrupt book.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), BookError> {
        let path = path.as_ref();
        let io = |cause| BookError::Io { path: path.to_path_buf(), cause };
        bastion_core::io::write_atomically(path, "bin.tmp", &self.to_bytes()).map_err(io)
    }

    /// The book as bytes in file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.entries.iter().flat_map(|e| e.to_bytes()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &[&str]) -> Position {
        let mut p = Position::startpos();
        for m in moves {
            let mv = p.parse_uci(m).unwrap();
            p = p.play(mv);
        }
        p
    }

    /// The test vectors published with the Polyglot book format.
    #[test]
    fn published_key_test_vectors() {
        let cases: [(&[&str], u64); 9] = [
            (&[], 0x463b96181691fc9c),
            (&["e2e4"], 0x823c9b50fd114196),
            (&["e2e4", "d7d5"], 0x0756b94461c50fb0),
            (&["e2e4", "d7d5", "e4e5"], 0x662fafb965db29d4),
            (&["e2e4", "d7d5", "e4e5", "f7f5"], 0x22a48b5a8e47ff78),
            (&["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"], 0x652a607ca3f242c1),
            (&["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"], 0x00fdd303c946bdd9),
            (&["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"], 0x3c8123ea7b067637),
            (&["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"], 0x5c3f9b829b279560),
        ];
        for (moves, key) in cases {
            assert_eq!(polyglot_key(&play(moves)), key, "{moves:?}");
        }
    }

    #[test]
    fn move_encoding_round_trips_every_legal_move() {
        for fen in [
            bastion_core::fen::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ] {
            let p = Position::from_fen(fen).unwrap();
            for &m in p.legal_moves().iter() {
                assert_eq!(decode_move(&p, encode_move(&p, m)), Some(m), "{fen} {m:?}");
            }
        }
        // e1g1 (king step) is read as castling too; e1h1 is the standard form.
        let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let oo = p.parse_san("O-O").unwrap();
        assert_eq!(encode_move(&p, oo), (4 << 6) | 7);
        assert_eq!(decode_move(&p, (4 << 6) | 6), Some(oo));
        // a7a8 promotion to queen: to=56, from=48, promo 4.
        let q = Position::from_fen("k7/P7/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let m = q.parse_uci("a7b8q").ok();
        assert!(m.is_none(), "b8 is not reachable");
        assert_eq!(decode_move(&q, 56 | (48 << 6) | (4 << 12)), None, "a8 is occupied");
    }

    #[test]
    fn file_round_trip_probe_and_weighted_pick() {
        let start = Position::startpos();
        let k = polyglot_key(&start);
        let e4 = start.parse_san("e4").unwrap();
        let d4 = start.parse_san("d4").unwrap();
        let nf3 = start.parse_san("Nf3").unwrap();
        let book = PolyglotBook::from_entries(vec![
            BookEntry::new(k, &start, d4, 30),
            BookEntry::new(k + 1, &start, nf3, 5),
            BookEntry::new(k, &start, e4, 70),
            BookEntry::new(k, &start, nf3, 0),
        ]);
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let path = dir.join("t.bin");
        book.save(&path).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 64);
        let back = PolyglotBook::open(&path).unwrap();
        assert_eq!(back, book);
        assert_eq!(back.probe(&start), vec![(e4, 70), (d4, 30), (nf3, 0)]);
        assert_eq!(back.pick_best(&start), Some(e4));
        // Over the whole range of randoms, picks follow the weights exactly.
        let (mut n_e4, mut n_d4) = (0, 0);
        for r in 0..100u64 {
            match back.pick_weighted(&start, r) {
                Some(m) if m == e4 => n_e4 += 1,
                Some(m) if m == d4 => n_d4 += 1,
                other => panic!("unexpected pick {other:?}"),
            }
        }
        assert_eq!((n_e4, n_d4), (70, 30));
        std::fs::write(&path, [0u8; 17]).unwrap();
        assert!(matches!(PolyglotBook::open(&path), Err(BookError::BadSize { size: 17, .. })));
        assert!(matches!(PolyglotBook::open(dir.join("missing.bin")), Err(BookError::Io { .. })));
    }

    /// A device or an oversized file named as a book is refused at once, unread
    /// (`setoption name BookFile value /dev/zero` used to read without end).
    #[test]
    fn refuses_devices_and_oversized_books() {
        if Path::new("/dev/zero").exists() {
            let e = PolyglotBook::open("/dev/zero").unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.bin");
        // Sparse: costs no disk.
        std::fs::File::create(&path).unwrap().set_len(MAX_BOOK_BYTES + ENTRY_SIZE as u64).unwrap();
        let e = PolyglotBook::open(&path).unwrap_err();
        assert!(e.to_string().contains("file larger than"), "{e}");
    }
}
