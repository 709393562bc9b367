//! `bastion rate` as a user runs it: ratings from PGN files with an anchor, the JSON
//! document, and clear errors for results that fix no rating and for bad arguments.

mod common;

use common::{bastion, text};
use std::path::PathBuf;
use tempfile::TempDir;

/// A PGN file of this test's own, in a directory removed when dropped: one game per
/// `(white, black, result)`.
fn pgn_file(games: &[(&str, &str, &str)]) -> (TempDir, PathBuf) {
    let mut pgn = String::new();
    for (white, black, result) in games {
        pgn.push_str(&format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n\n"
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, pgn).unwrap();
    (dir, path)
}

#[test]
fn a_gauntlet_is_rated_on_the_anchors_scale() {
    // Bastion scores 3/4 against Ethereal 12 and 1/4 against Stockfish; one unfinished game.
    let games = [
        ("Bastion", "Ethereal 12", "1-0"),
        ("Ethereal 12", "Bastion", "0-1"),
        ("Bastion", "Ethereal 12", "1/2-1/2"),
        ("Ethereal 12", "Bastion", "1/2-1/2"),
        ("Bastion", "Stockfish", "0-1"),
        ("Stockfish", "Bastion", "1/2-1/2"),
        ("Stockfish", "Bastion", "*"),
    ];
    let (_dir, file) = pgn_file(&games);
    let path = file.to_str().unwrap();
    let out = bastion(&["rate", path, "--anchor", "Ethereal 12=3000"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("6 games between 3 players (1 of 7 not counted"), "{table}");
    assert!(table.contains("anchor"), "{table}");
    // 3/4 against the anchor alone would be +190.8; the loss to Stockfish lowers it a little.
    let out = bastion(&["rate", path, "--anchor", "Ethereal 12=3000", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let players = doc["ratings"]["players"].as_array().unwrap();
    let rating = |name: &str| players.iter().find(|p| p["name"] == name).unwrap()["rating"].as_f64().unwrap();
    assert_eq!(rating("Ethereal 12"), 3000.0);
    assert!(rating("Stockfish") > rating("Bastion") && rating("Bastion") > 3000.0);
    assert_eq!(doc["games_skipped"], 1);
}

#[test]
fn results_and_arguments_that_fix_no_rating_are_refused_clearly() {
    let (_dir, file) = pgn_file(&[("A", "B", "1-0"), ("B", "A", "0-1")]);
    let path = file.to_str().unwrap();
    let out = bastion(&["rate", path]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("\"A\" won every game against \"B\""), "{}", text(&out.stderr));
    let out = bastion(&["rate", path, "--anchor", "C=2000"]);
    assert!(text(&out.stderr).contains("the anchor \"C\" is not a player"), "{}", text(&out.stderr));
    let out = bastion(&["rate", path, "--anchor", "A"]);
    assert!(text(&out.stderr).contains("expected NAME=ELO"), "{}", text(&out.stderr));
    let out = bastion(&["rate", "/nonexistent/games.pgn"]);
    assert!(!out.status.success() && text(&out.stderr).contains("cannot open"), "{}", text(&out.stderr));
}
