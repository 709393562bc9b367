//! Entry points for fuzzing the text parsers. The cargo-fuzz targets in
//! `crates/core/fuzz` call these, and a regular test replays the stored corpus
//! through them, so CI checks every corpus input without a nightly toolchain.
//! Each function panics only if a parser breaks one of its promises.

use crate::epd::Epd;
use crate::position::Position;

/// FEN: parsing never panics; a parsed position writes a FEN that parses to the same position.
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = Position::from_fen(text) {
        let again = Position::from_fen(&pos.fen()).expect("written FEN must parse");
        assert_eq!(again.fen(), pos.fen());
        assert_eq!(again.key(), pos.key());
        let _ = pos.legal_moves();
    }
}

/// EPD: parsing never panics; a parsed record written back parses to the same record.
pub fn epd(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(e) = Epd::parse(text) {
        let written = e.to_string();
        let again = Epd::parse(&written).expect("written EPD must parse");
        assert_eq!(again.to_string(), written);
        let _ = e.best_moves();
        let _ = e.mate();
    }
}

/// SAN and UCI moves: the first line is a FEN, the second a move text. Parsing
/// never panics, and a parsed move writes back (SAN and UCI) to text that parses to it.
pub fn moves(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut lines = text.splitn(2, '\n');
    let fen = lines.next().unwrap_or("");
    let mv = lines.next().unwrap_or("");
    let pos = Position::from_fen(fen).unwrap_or_default();
    if let Ok(m) = pos.parse_san(mv) {
        assert_eq!(pos.parse_san(&pos.san(m)).ok(), Some(m));
    }
    if let Ok(m) = pos.parse_uci(mv) {
        assert_eq!(pos.parse_uci(&pos.to_uci(m)).ok(), Some(m));
    }
}
