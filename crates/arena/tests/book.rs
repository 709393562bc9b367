//! Polyglot books against reference data: python-chess's keys, Debian's
//! `polyglot make-book`, and the book shipped in Debian's `gnuchess-book`.

use bastion_arena::book::{polyglot_key, BookBuilder, PolyglotBook};
use bastion_arena::pgn;
use bastion_core::Position;
use std::collections::BTreeMap;

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// 600 positions from random games (castling rights lost one by one,
/// en-passant squares, both sides to move) hashed by python-chess 1.11.2.
#[test]
fn keys_match_python_chess_on_600_positions() {
    let text = std::fs::read_to_string(data("polyglot_keys.txt")).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let (fen, key) = line.split_once(';').unwrap();
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(format!("{:016x}", polyglot_key(&pos)), key, "{fen}");
        n += 1;
    }
    assert_eq!(n, 600);
}

fn triples(book: &PolyglotBook) -> BTreeMap<(u64, u16), u16> {
    book.entries().iter().map(|e| ((e.key, e.raw_move), e.weight)).collect()
}

fn built_from_games(max_ply: usize) -> PolyglotBook {
    let games = pgn::read_games(std::fs::File::open(data("games.pgn")).unwrap()).unwrap();
    assert_eq!(games.len(), 20);
    let mut b = BookBuilder::new(max_ply);
    for g in &games {
        b.add_game(&g.start, &g.moves, g.winner().unwrap());
    }
    b.build()
}

/// `games-polyglot.bin` was written by Debian's PolyGlot 2.0.4:
/// `polyglot make-book -pgn games.pgn -bin games-polyglot.bin -max-ply 30 -min-game 1`.
/// Our builder must produce the same keys, moves and weights.
#[test]
fn builder_matches_polyglot_make_book() {
    let reference = PolyglotBook::open(data("games-polyglot.bin")).unwrap();
    let ours = built_from_games(30);
    assert_eq!(reference.len(), 291);
    assert_eq!(triples(&ours), triples(&reference));
    let start = Position::startpos();
    let sorted = |mut v: Vec<(bastion_core::Move, u16)>| {
        v.sort_by_key(|&(m, w)| (w, m.raw()));
        v
    };
    assert_eq!(sorted(ours.probe(&start)), sorted(reference.probe(&start)));
    // e4, d4, c4 and Nf3 start the openings file's lines.
    assert_eq!(reference.probe(&start).len(), 4);
}

#[test]
#[ignore = "needs Debian engines; run by .ci/run"]
fn builder_matches_live_polyglot() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("live.bin");
    for max_ply in [4usize, 12, 40] {
        // Debian installs game programs in /usr/games, often not on PATH.
        let program =
            if std::path::Path::new("/usr/games/polyglot").exists() { "/usr/games/polyglot" } else { "polyglot" };
        let status = std::process::Command::new(program)
            .args(["make-book", "-pgn", &data("games.pgn"), "-bin"])
            .arg(&out)
            .args(["-max-ply", &max_ply.to_string(), "-min-game", "1"])
            .output()
            .expect("polyglot is installed (Debian package polyglot)");
        assert!(status.status.success());
        let reference = PolyglotBook::open(&out).unwrap();
        assert_eq!(triples(&built_from_games(max_ply)), triples(&reference), "max-ply {max_ply}");
    }
}

#[test]
#[ignore = "needs Debian engines; run by .ci/run"]
fn reads_debian_gnuchess_book() {
    let book = PolyglotBook::open("/usr/share/games/gnuchess/book.bin").expect("package gnuchess-book");
    assert!(book.len() > 100_000);
    let start = Position::startpos();
    let moves = book.probe(&start);
    // Values as python-chess reads the same file.
    let e4 = start.parse_san("e4").unwrap();
    let d4 = start.parse_san("d4").unwrap();
    assert_eq!(&moves[..2], &[(e4, 12135), (d4, 11257)]);
    // Every move listed for positions along a main line is legal there.
    let mut pos = start;
    for _ in 0..12 {
        let Some(m) = book.pick_best(&pos) else { break };
        pos = pos.play(m);
    }
    assert!(pos.fullmove_number() >= 4);
}
