//! `bastion timeuse` as a user runs it: each engine's clock use from a PGN file's move
//! comments, as lines and as JSON, from a file or standard input, and clear errors.

mod common;

use common::{bastion_with_input as bastion, text};

/// Two games at 4+1 (an even share of the clock is 4/40 + 1 = 1.1 s): A spends 2.2 s and
/// 1.1 s a move, B 0.55 s; the second game gives B its own, slower clock (time odds).
const GAMES: &str = r#"[Event "m"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]
[TimeControl "4+1"]

1. e4 {book} e5 {book} 2. Nf3 {+0.30/12 2.200s} Nc6 {-0.20/10 0.550s}
3. Bb5 {+0.40/14 1.100s} a6 {-0.25/11 0.550s, Black resigns} 1-0

[Event "m"]
[Round "2"]
[White "B"]
[Black "A"]
[Result "1/2-1/2"]
[WhiteTimeControl "8+1"]
[BlackTimeControl "4+1"]

1. d4 {+0.10/9 0.550s} d5 {-0.05/13 2.200s} 1/2-1/2
"#;

#[test]
fn each_engine_gets_its_moves_depths_clock_and_profile() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, GAMES).unwrap();
    let out = bastion(&["timeuse", path.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "2 games");
    // A: 2.2 + 1.1 + 2.2 s over three moves; its clock at 4+1 fell to 4 − 2.2 = 1.8 s, then
    // 1.8 + 1 − 1.1 = 1.7 s (round 1).
    assert_eq!(lines[1], "A: 3 moves, 1.833 s a move, depth 13.0, lowest clock at a move 1.700 s (round 1)");
    // Shares of 1.1 s: 2, 1, 2; the clock after the last move: (1.7 + 1)/4 and (1.8 + 1)/4.
    assert_eq!(lines[2], "  a move ÷ even share, moves 1–10 1.67; clock left at the end 69 % of the base");
    // B: 4 − 0.55 s at its first move. On 8+1 in game 2 its even share is 1.2 s: shares
    // 0.5, 0.5 and 0.458.
    assert_eq!(lines[3], "B: 3 moves, 0.550 s a move, depth 10.0, lowest clock at a move 3.450 s (round 1)");
    assert!(lines[4].starts_with("  a move ÷ even share, moves 1–10 0.49;"), "{}", lines[4]);
    // The same from standard input, as JSON.
    let out = bastion(&["timeuse", "-", "--json"], GAMES);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["games"], 2);
    assert_eq!(doc["time_use"]["A"]["moves"], 3);
    assert_eq!(doc["time_use"]["A"]["profile"][0]["moves"], 3);
    assert_eq!(doc["time_use"]["B"]["clock_games"], 2);
}

#[test]
fn games_without_timed_moves_and_bad_inputs() {
    let out = bastion(&["timeuse", "-"], "[White \"x\"]\n[Black \"y\"]\n\n1. e4 e5 *\n");
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "1 games\nno timed moves (comments such as {+0.35/17 0.210s})\n");
    for (args, want) in [
        (vec!["timeuse", "/no/such/file.pgn"], "cannot open /no/such/file.pgn"),
        (vec!["timeuse", "/"], "not a regular file"),
    ] {
        let out = bastion(&args, "");
        assert!(!out.status.success(), "{args:?}");
        assert!(text(&out.stderr).contains(want), "{args:?}: {}", text(&out.stderr));
    }
    assert!(!bastion(&["timeuse"], "").status.success(), "a PGN file is required");
}
