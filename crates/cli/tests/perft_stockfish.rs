//! `go perft` against Stockfish's: the same divide, move by move, on the arena's 300 openings
//! and the standard positions of the tricky perft set (Debian's `stockfish`; `.ci/run`
//! installs it and runs this).

mod common;

use std::collections::BTreeMap;
use std::process::Command;

const DEPTH: u32 = 3;

/// Each position's divide as `engine` prints it for `go perft DEPTH`, with its total.
fn divides(engine: &str, args: &[&str], fens: &[String]) -> Vec<(BTreeMap<String, u64>, u64)> {
    let mut input = String::new();
    for fen in fens {
        input += &format!("position fen {fen}\ngo perft {DEPTH}\n");
    }
    input += "quit\n";
    let mut child = Command::new(engine)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{engine} runs: {e}"));
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let mut all = Vec::new();
    let mut current = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(total) = line.strip_prefix("Nodes searched: ") {
            all.push((std::mem::take(&mut current), total.trim().parse().unwrap()));
        } else if let Some((mv, n)) = line.split_once(": ") {
            if let Ok(n) = n.trim().parse::<u64>() {
                current.insert(mv.to_string(), n);
            }
        }
    }
    all
}

#[test]
#[ignore = "needs Debian's stockfish; run by .ci/run"]
fn go_perft_divides_as_stockfish_does() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let openings = std::fs::read_to_string(format!("{dir}/../arena/tests/data/openings.epd")).unwrap();
    let tricky = std::fs::read_to_string(format!("{dir}/../core/tests/data/tricky.perft")).unwrap();
    let mut fens: Vec<String> = openings
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" ") + " 0 1")
        .collect();
    assert_eq!(fens.len(), 300);
    // The tricky set's standard positions; the rest are Chess960 (`xfen-…`) or cannot arise
    // (impossible checkers and castling rights), and Stockfish trusts its input to be a
    // position that can arise (on one of those it stops and loses the rest of its input).
    let mut id = "";
    for line in tricky.lines() {
        if let Some(name) = line.strip_prefix("id ") {
            id = name.trim();
        } else if let Some(fen) = line.strip_prefix("epd ") {
            if id.starts_with("pos-") || id.starts_with("gotta-love-perft-") {
                fens.push(fen.to_string());
            }
        }
    }
    assert_eq!(fens.len(), 307, "the five positions of the perft page and two from a forum thread");
    let stockfish =
        if std::path::Path::new("/usr/games/stockfish").exists() { "/usr/games/stockfish" } else { "stockfish" };
    let theirs = divides(stockfish, &[], &fens);
    let ours = divides(common::BASTION, &["uci"], &fens);
    assert_eq!(theirs.len(), fens.len(), "Stockfish answered every position");
    assert_eq!(ours.len(), fens.len(), "Bastion answered every position");
    for ((fen, a), b) in fens.iter().zip(&ours).zip(&theirs) {
        assert_eq!(a, b, "divide at depth {DEPTH} of {fen}: Bastion, then Stockfish");
    }
}
