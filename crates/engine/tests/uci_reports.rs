//! What the UCI server reports besides the principal variations: a root without legal
//! moves, the root move being searched (`currmove`) and the node rate.

mod common;

use bastion_core::Position;
use bastion_engine::search::CurrMove;
use bastion_engine::{Engine, EngineOptions, Limits};
use common::{field, session, until, until_bestmove};
use std::sync::{Arc, Mutex};

#[test]
fn a_mated_or_stalemated_root_says_so_before_bestmove_0000() {
    let (mut uci, rx) = session();
    for (fen, score) in [
        // Fool's mate: White is mated.
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "mate 0"),
        // Black is stalemated.
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "cp 0"),
    ] {
        uci.handle(&format!("position fen {fen}"));
        uci.handle("go depth 5");
        let lines = until_bestmove(&rx);
        assert_eq!(lines, [format!("info depth 0 score {score}"), "bestmove 0000".to_string()], "{fen}");
        // Also under `go infinite`: the report at once, bestmove after stop.
        uci.handle("go infinite");
        assert_eq!(until(&rx, "info depth 0"), [format!("info depth 0 score {score}")]);
        uci.handle("stop");
        assert_eq!(until_bestmove(&rx), ["bestmove 0000"]);
    }
}

#[test]
fn nps_is_zero_when_no_time_has_passed() {
    // Shallow searches from a cleared table: their first reports come within the first
    // millisecond (`time 0`), where no rate can be given.
    let (mut uci, rx) = session();
    for round in 0..20 {
        uci.handle(if round % 2 == 0 { "position startpos" } else { "position startpos moves d2d4" });
        uci.handle("ucinewgame");
        uci.handle("go depth 2");
        for line in until_bestmove(&rx).iter().filter(|l| l.starts_with("info depth")) {
            let time: u64 = field(line, "time").unwrap().parse().unwrap();
            let nps: u64 = field(line, "nps").unwrap().parse().unwrap();
            let nodes: u64 = field(line, "nodes").unwrap().parse().unwrap();
            assert_eq!(nps, (nodes * 1000).checked_div(time).unwrap_or(0), "{line}");
        }
    }
}

#[test]
fn currmove_numbers_the_root_moves_of_each_iteration() {
    let pos = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
    let legal = pos.legal_moves().len();
    for multipv in [1, 3] {
        // Progress from the first millisecond on (the UCI default is Stockfish's 3 s).
        let opts = EngineOptions { hash_mb: 8, multipv, progress_after_ms: 0, ..EngineOptions::default() };
        let mut engine = Engine::new(opts);
        let seen = Arc::new(Mutex::new(Vec::<CurrMove>::new()));
        let sink = Arc::clone(&seen);
        engine.set_currmove_report(Some(Arc::new(move |c: &CurrMove| sink.lock().unwrap().push(*c))));
        engine.search(&pos, &[], &Limits::depth(8), &mut |_| {});
        let seen = seen.lock().unwrap();
        assert!(seen.len() >= 8 * legal, "MultiPV {multipv}: {} reports", seen.len());
        let mut prev: Option<CurrMove> = None;
        for c in seen.iter() {
            assert!(pos.is_legal(c.mv) && (1..=8).contains(&c.depth) && c.number <= legal, "{c:?}");
            // Numbers run on by one, or start again at a (re-)search of a MultiPV line.
            let next = prev.is_some_and(|p| p.depth == c.depth && c.number == p.number + 1);
            assert!(next || c.number <= multipv, "{prev:?} then {c:?}");
            prev = Some(*c);
        }
    }
}

#[test]
fn currmove_is_reported_in_a_long_search() {
    let (mut uci, rx) = session();
    uci.handle("position startpos");
    uci.handle("go infinite");
    // The first one comes after three seconds (Stockfish's rule); only its form is checked.
    let deadline = std::time::Instant::now() + common::HANG;
    let line = loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let line = rx.recv_timeout(left).expect("a currmove report");
        if line.contains(" currmove ") {
            break line;
        }
    };
    uci.handle("stop");
    until_bestmove(&rx);
    let t: Vec<&str> = line.split_whitespace().collect();
    assert_eq!((t.len(), t[0], t[1], t[3], t[5]), (7, "info", "depth", "currmove", "currmovenumber"), "{line}");
    assert!(t[2].parse::<i32>().unwrap() >= 1, "{line}");
    assert!(Position::startpos().parse_uci(t[4]).is_ok(), "{line}");
    assert!((1..=20).contains(&t[6].parse::<usize>().unwrap()), "{line}");
}
