//! `bastion rate` as a user runs it: ratings from PGN files with an anchor, the JSON
//! document, and clear errors for results that fix no rating and for bad arguments.

mod common;

use common::{bastion, text};
use std::path::PathBuf;

/// A PGN file of this test's own: one game per `(white, black, result)`.
fn pgn_file(name: &str, games: &[(&str, &str, &str)]) -> PathBuf {
    let mut pgn = String::new();
    for (white, black, result) in games {
        pgn.push_str(&format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n\n"
        ));
    }
    let path = std::env::temp_dir().join(format!("bastion-rate-{}-{name}.pgn", std::process::id()));
    std::fs::write(&path, pgn).unwrap();
    path
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
    let file = pgn_file("gauntlet", &games);
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
    std::fs::remove_file(file).unwrap();
}

#[test]
fn results_and_arguments_that_fix_no_rating_are_refused_clearly() {
    let file = pgn_file("sweep", &[("A", "B", "1-0"), ("B", "A", "0-1")]);
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
    std::fs::remove_file(file).unwrap();
}
