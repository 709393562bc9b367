//! `bastion paired` as a user runs it: two versions' games against the same opponent
//! compared game by game, as lines and JSON, and clear errors.

mod common;

use common::{bastion, text};
use std::path::{Path, PathBuf};

/// A PGN file `name`.pgn in `dir`: one game per `(opening move, white, black, result)`, each
/// from the position after that first move.
fn pgn_file(dir: &Path, name: &str, games: &[(&str, &str, &str, &str)]) -> PathBuf {
    let fen = |m: &str| match m {
        "e4" => "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        _ => "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
    };
    let mut pgn = String::new();
    for (opening, white, black, result) in games {
        pgn.push_str(&format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n\n{result}\n\n",
            fen(opening)
        ));
    }
    let path = dir.join(format!("{name}.pgn"));
    std::fs::write(&path, pgn).unwrap();
    path
}

#[test]
fn a_candidate_is_compared_game_by_game_with_its_base() {
    let dir = tempfile::tempdir().unwrap();
    let base = pgn_file(
        dir.path(),
        "base",
        &[
            ("e4", "v1", "sf", "0-1"),
            ("e4", "sf", "v1", "1-0"),
            ("d4", "v1", "sf", "1/2-1/2"),
            ("d4", "sf", "v1", "1-0"),
        ],
    );
    let cand = pgn_file(
        dir.path(),
        "cand",
        &[
            ("d4", "sf", "v2", "1/2-1/2"),
            ("e4", "v2", "sf", "1-0"),
            ("e4", "sf", "v2", "1-0"),
            ("d4", "v2", "sf", "1-0"),
        ],
    );
    let (b, c) = (base.to_str().unwrap(), cand.to_str().unwrap());
    let out = bastion(&["paired", b, c]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.starts_with(
            "4 games paired (same opening, colour and opponent): v1 0.5/4 (12.50 %), v2 2.5/4 (62.50 %)\n"
        ),
        "{report}"
    );
    assert!(report.contains("v2 − v1, by game (4): +50.00 % a game, standard error "), "{report}");
    assert!(report.contains("v2 − v1, by opening, both colours (2): +50.00 % a game"), "{report}");
    let out = bastion(&["paired", b, c, "--json", "--confidence", "0.9"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["pairs"].as_array().unwrap().len(), 4);
    assert_eq!(doc["by_game"]["mean"], 0.5);
    assert_eq!(doc["confidence"], 0.9);
    // Named explicitly, the same.
    let named = bastion(&["paired", b, c, "--base", "v1", "--candidate", "v2"]);
    assert_eq!(text(&named.stdout), report);
    // Errors: a name that plays no game, sets with nothing in common, a bad confidence, no file.
    for (args, want) in [
        (vec!["paired", b, c, "--base", "v3"], "\"v3\" plays no game of the base set"),
        (vec!["paired", b, b], "cannot tell the base engine"),
        (vec!["paired", b, c, "--confidence", "1.5"], "confidence must lie strictly between 0 and 1"),
        (vec!["paired", b, "/no/such.pgn"], "cannot open /no/such.pgn"),
    ] {
        let out = bastion(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(text(&out.stderr).contains(want), "{args:?}: {}", text(&out.stderr));
    }
}
