//! Cross-check against python-chess: for every position of random games, the
//! set of legal moves, the SAN of each, the FEN and the game-end verdicts must
//! agree. A small committed sample runs everywhere; `.ci/run` installs
//! python-chess and runs the ignored test, which makes hundreds of fresh games.

use bastion_core::castling::CastlingMode;
use bastion_core::{Game, Position};
use serde_json::Value;
use std::collections::BTreeMap;

fn check_games(jsonl: &str) -> usize {
    let mut positions = 0;
    for (g, line) in jsonl.lines().enumerate() {
        let game: Value = serde_json::from_str(line).unwrap();
        let mode = CastlingMode::from(game["chess960"].as_bool().unwrap());
        let start = Position::from_fen_with(game["start"].as_str().unwrap(), mode).unwrap();
        let mut state = Game::new(start);
        let records = game["positions"].as_array().unwrap();
        let moves = game["moves"].as_array().unwrap();
        assert_eq!(records.len(), moves.len() + 1);
        for (i, rec) in records.iter().enumerate() {
            let pos = state.position();
            let ctx = format!("game {g} ply {i} {}", rec["fen"]);
            assert_eq!(pos.fen(), rec["fen"].as_str().unwrap(), "{ctx}");
            let ours: BTreeMap<String, String> =
                pos.legal_moves().iter().map(|&m| (pos.to_uci(m), pos.san(m))).collect();
            let theirs: BTreeMap<String, String> = rec["moves"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                .collect();
            assert_eq!(ours, theirs, "{ctx}");
            for (uci, san) in &theirs {
                assert_eq!(pos.to_uci(pos.parse_san(san).unwrap()), *uci, "{ctx} parse {san}");
            }
            let v = &rec["verdicts"];
            let flag = |k: &str| v[k].as_bool().unwrap();
            let reps = state.repetition_count();
            assert_eq!(pos.is_checkmate(), flag("checkmate"), "{ctx}");
            assert_eq!(pos.is_stalemate(), flag("stalemate"), "{ctx}");
            assert_eq!(pos.is_insufficient_material(), flag("insufficient"), "{ctx}");
            assert_eq!(pos.halfmove_clock() >= 100, flag("fifty"), "{ctx}");
            assert_eq!(reps >= 3, flag("threefold"), "{ctx}");
            assert_eq!(reps >= 5, flag("fivefold"), "{ctx}");
            assert_eq!(pos.halfmove_clock() >= 150 && pos.has_legal_moves(), flag("seventyfive"), "{ctx}");
            assert_eq!(pos.in_check(), flag("check"), "{ctx}");
            positions += 1;
            if let Some(m) = moves.get(i) {
                let m = pos.parse_uci(m.as_str().unwrap()).unwrap();
                state.make(m);
            }
        }
    }
    positions
}

#[test]
fn committed_python_chess_sample() {
    let text = include_str!("data/python-chess-sample.jsonl");
    assert!(check_games(text) > 500);
}

#[test]
#[ignore = "needs python3 with python-chess (pip install chess); .ci/run installs it and runs this"]
fn fresh_python_chess_games() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference/python_chess_reference.py");
    let seed: u64 = std::env::var("BASTION_REFERENCE_SEED")
        .map(|s| s.parse().expect("BASTION_REFERENCE_SEED is a number"))
        .unwrap_or(20261122);
    // 150 games from two python processes at once (seeds `seed` and `seed + 1`, 75 games
    // each): python-chess makes the games on one core, and the machine has two. Each output is
    // read on a thread of its own, so neither process waits on a full pipe.
    let outputs = std::thread::scope(|scope| {
        [seed, seed + 1]
            .map(|s| {
                scope.spawn(move || {
                    std::process::Command::new("python3")
                        .args([script, "--games", "75", "--seed", &s.to_string()])
                        .output()
                        .expect("python3 must be installed for this test")
                })
            })
            .map(|shard| shard.join().expect("the shard's thread"))
    });
    let mut n = 0;
    for out in outputs {
        assert!(out.status.success(), "python-chess reference failed: {}", String::from_utf8_lossy(&out.stderr));
        n += check_games(&String::from_utf8(out.stdout).unwrap());
    }
    assert!(n > 10_000, "only {n} positions compared");
    println!("compared {n} positions with python-chess (seeds {seed} and {})", seed + 1);
}
