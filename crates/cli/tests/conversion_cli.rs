//! `bastion conversion` as a user runs it: each engine's clear advantages from a PGN file's
//! move comments, as lines and as JSON, from a file or standard input, and clear errors.

mod common;

use common::{bastion_with_input as bastion, text};

/// A is clearly ahead in both games: it mates in the first (Scholar's mate) and lets the
/// second go to a repetition draw; B is clearly behind in the first.
const GAMES: &str = r#"[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 {book} e5 {book} 2. Bc4 {+0.30/12 0.1s} Nc6 {-0.20/10 0.1s}
3. Qh5 {+2.10/14 0.1s} Nf6 {-2.50/11 0.1s} 4. Qxf7# {+M1/1 0.1s} 1-0

[White "B"]
[Black "A"]
[Result "1/2-1/2"]

1. Nf3 {-2.50/10 0.1s} Nf6 {+2.40/10 0.1s} 2. Ng1 {-2.60/10 0.1s} Ng8 {+2.50/10 0.1s}
3. Nf3 {0.00/10 0.1s} Nf6 {+0.10/10 0.1s} 4. Ng1 {0.00/10 0.1s} Ng8 {0.00/10 0.1s} 1/2-1/2

[White "A"]
[Black "B"]
[Result "*"]

1. e4 {+5.00/1 0.1s} *
"#;

#[test]
fn each_engine_gets_its_advantages_and_how_they_ended() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, GAMES).unwrap();
    let out = bastion(&["conversion", path.to_str().unwrap(), "--pawns", "2", "--moves", "2"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "3 games");
    assert_eq!(lines[1], "A: ahead (own score ≥ +2.00 for 2 moves in a row) in 2 of 2 games: +1 =1 −0, 50.0 % won");
    assert_eq!(lines[2], "  behind (≤ −2.00 for 2 moves) in 0 of 2 games: +0 =0 −0");
    assert_eq!(lines[3], "  ahead and not won, ended by: 1 repetition");
    // A's last move at +1 or more was 2... Ng8 of the second game, three halfmoves in.
    assert!(lines[4].contains("median 3 halfmoves; 0 of 1 at 50 or more"), "{stdout}");
    assert!(lines[5].starts_with("B: ahead (own score ≥ +2.00 for 2 moves in a row) in 0 of 2 games"), "{stdout}");
    assert_eq!(lines[6], "  behind (≤ −2.00 for 2 moves) in 1 of 2 games: +0 =1 −0, 100.0 % not lost");

    let out = bastion(&["conversion", "-", "--json"], GAMES);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["games"], 3);
    assert_eq!(doc["advantage"]["moves"], 8);
    // With eight moves in a row nobody was clearly ahead in games this short.
    assert_eq!(doc["engines"]["A"]["games"], 2);
    assert_eq!(doc["engines"]["A"]["ahead"]["draws"], 0);
}

#[test]
fn bad_arguments_and_files_get_clear_errors() {
    let out = bastion(&["conversion", "/nonexistent/games.pgn"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("/nonexistent/games.pgn"), "{}", text(&out.stderr));
    for (flag, value) in [("--pawns", "0"), ("--pawns", "nan"), ("--moves", "0")] {
        let out = bastion(&["conversion", "-", flag, value], GAMES);
        assert!(!out.status.success(), "{flag} {value}");
        assert!(text(&out.stderr).contains(flag), "{flag}: {}", text(&out.stderr));
    }
    let out = bastion(&["conversion", "-"], "");
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "0 games\nno finished games\n");
}
