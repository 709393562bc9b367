//! Fuzz entry points for the parsers outside the core library: PGN, Progressive
//! FEN, UCI command lines and the web API's JSON request bodies, plus FEN read as
//! Chess960. The cargo-fuzz targets in `crates/core/fuzz/fuzz_targets/` call these,
//! and this crate's `tests/replay.rs` replays every stored corpus
//! (`crates/core/fuzz/corpus/<target>/`) through them in the normal test run. Each function panics only if a parser breaks one of its promises:
//! no panic on any input, and written text reads back to the same thing.

#![warn(missing_docs)]

use bastion_core::castling::CastlingMode;
use bastion_core::Position;
use bastion_engine::protocol::UciSession;
use bastion_engine::EngineOptions;
use bastion_progressive::{Rules, SeriesPosition};

/// FEN read as Chess960 (X-FEN and Shredder-FEN castling): never panics, and a
/// parsed position writes a FEN that reads back to the same position.
pub fn fen960(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = Position::from_fen_with(text, CastlingMode::Chess960) {
        let again = Position::from_fen_with(&pos.fen(), CastlingMode::Chess960).expect("written FEN must parse");
        assert_eq!(again, pos);
        for &m in pos.legal_moves().iter() {
            assert_eq!(pos.parse_uci(&pos.to_uci(m)).ok(), Some(m));
        }
    }
}

/// PGN: reading any bytes never panics; every game read writes PGN that reads back
/// to the same start, moves, result and (trimmed) comments.
pub fn pgn(data: &[u8]) {
    let Ok(games) = bastion_arena::pgn::read_games(data) else { return };
    for game in games {
        let written = game.to_pgn();
        let again = bastion_arena::pgn::read_first_game(written.as_bytes())
            .expect("reading from memory cannot fail")
            .expect("written PGN holds a game");
        assert_eq!(again.start, game.start, "{written}");
        assert_eq!(again.moves, game.moves, "{written}");
        assert_eq!(again.result, game.result, "{written}");
        // The writer drops braces from comments and the reader trims them, so a
        // comment comes back as its trimmed text without braces.
        let plain = |c: &String| c.replace(['{', '}'], "").trim().to_string();
        let want: Vec<String> = game.comments.iter().map(plain).collect();
        assert_eq!(again.comments.iter().map(plain).collect::<Vec<_>>(), want, "{written}");
    }
}

/// Progressive FEN, under both rule sets: never panics, and a parsed position
/// writes a Progressive FEN that reads back to the same text and key. The first
/// byte, if a digit, gives the series length for a plain FEN.
pub fn progressive_fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let series = text.chars().next().and_then(|c| c.to_digit(10));
    for rules in [Rules::Italian, Rules::Scottish] {
        if let Ok(pos) = SeriesPosition::from_fen(text, series, rules) {
            let written = pos.fen();
            let again = SeriesPosition::from_fen(&written, None, rules).expect("written Progressive FEN must parse");
            assert_eq!(again.fen(), written);
            assert_eq!(again.key(), pos.key());
            let _ = pos.legal_moves();
        }
    }
}

/// Options that read files or allocate what they are told: a fuzzer must not make
/// the session open `/dev/zero` or reserve gigabytes, so lines naming them are skipped.
const SKIPPED_OPTIONS: [&str; 6] = ["file", "path", "hash", "threads", "dir", "book"];

/// UCI command lines, one per line, given to an in-process session: no line may
/// panic it. Searches are bounded: `go` gets `depth 1` appended (the last limit
/// wins) and loses `infinite` and `ponder`, and `go perft` goes no deeper than 2, so
/// each input ends in milliseconds.
pub fn uci_commands(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // A 1 MB table: the default 64 MB would be cleared for every input, which made this
    // target run at about 70 inputs a second.
    let opts = EngineOptions { hash_mb: 1, ..EngineOptions::default() };
    let mut session = UciSession::with_options(std::io::sink(), opts);
    for line in text.lines().take(64) {
        let lower = line.to_ascii_lowercase();
        let mut tokens = lower.split_whitespace();
        let line = match tokens.next() {
            Some("setoption") if SKIPPED_OPTIONS.iter().any(|o| lower.contains(o)) => continue,
            // Perft is bounded by its depth alone (the `depth 1` below is not read): keep it
            // cheap.
            Some("go")
                if tokens.next() == Some("perft")
                    && matches!(tokens.next().map(str::parse::<u32>), Some(Ok(depth)) if depth > 2) =>
            {
                "go perft 2".to_string()
            }
            Some("go") => {
                let kept: Vec<&str> =
                    line.split_whitespace().filter(|t| !matches!(*t, "infinite" | "ponder")).collect();
                format!("{} depth 1", kept.join(" "))
            }
            Some("ponderhit") => continue,
            _ => line.to_string(),
        };
        if !session.handle(&line) {
            return;
        }
    }
    session.handle("quit");
}

/// The web API's JSON request bodies: the first line names the request type, the
/// rest is the body. Deserializing never panics.
pub fn web_json(data: &[u8]) {
    let Some(split) = data.iter().position(|&b| b == b'\n') else { return };
    let (kind, body) = (&data[..split], &data[split + 1..]);
    fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) {
        let _ = serde_json::from_slice::<T>(body);
    }
    use bastion_web::{chess, engine, fortress, progressive, solver, tablebase};
    match kind {
        b"legal" => parse::<chess::LegalReq>(body),
        b"move" => parse::<chess::MoveReq>(body),
        b"game" => parse::<chess::GameReq>(body),
        b"pgn-import" => parse::<chess::PgnImportReq>(body),
        b"pgn-export" => parse::<chess::PgnExportReq>(body),
        b"search" => parse::<engine::SearchReq>(body),
        b"fortress" => parse::<fortress::FortressReq>(body),
        b"progressive" => parse::<progressive::ProgReq>(body),
        b"solve" => parse::<solver::SolveReq>(body),
        b"probe" => parse::<tablebase::ProbeReq>(body),
        _ => {}
    }
}

/// Every request type [`web_json`] knows, by the name its first line gives.
pub const WEB_REQUESTS: [&str; 10] =
    ["legal", "move", "game", "pgn-import", "pgn-export", "search", "fortress", "progressive", "solve", "probe"];
