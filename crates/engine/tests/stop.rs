//! `stop` during `go infinite` / `go ponder`: answered with one `bestmove` from the
//! session's reading thread, nothing of that search printed after it, and the next
//! commands find the engine idle.

mod common;

use common::{session, until, until_bestmove, HANG};
use std::time::Duration;

/// Lines that arrive within `wait` (none expected).
fn drain(rx: &std::sync::mpsc::Receiver<String>, wait: Duration) -> Vec<String> {
    let mut lines = Vec::new();
    while let Ok(l) = rx.recv_timeout(wait) {
        lines.push(l);
    }
    lines
}

#[test]
fn stop_answers_once_and_nothing_of_the_search_follows() {
    for threads in [1, 2] {
        let (mut uci, rx) = session();
        uci.handle(&format!("setoption name Threads value {threads}"));
        for round in 0..20 {
            uci.handle("position startpos moves e2e4 e7e5");
            uci.handle(if round % 2 == 0 { "go infinite" } else { "go ponder wtime 1000 btime 1000" });
            // A completed depth first, so that `stop` has a move to answer with.
            until(&rx, "info depth 2");
            uci.handle("stop");
            let lines = until_bestmove(&rx);
            let best = lines.last().unwrap();
            assert!(best.len() >= 13 && best != "bestmove 0000", "{best}");
            uci.handle("isready");
            let after = until(&rx, "readyok");
            assert_eq!(after, vec!["readyok".to_string()], "threads {threads}, round {round}: {after:#?}");
        }
        assert!(drain(&rx, Duration::from_millis(50)).is_empty());
    }
}

#[test]
fn stop_before_the_first_report_waits_for_the_search() {
    let (mut uci, rx) = session();
    for _ in 0..50 {
        uci.handle("go infinite");
        uci.handle("stop");
        let lines = until_bestmove(&rx);
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:#?}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
        uci.handle("isready");
        assert_eq!(rx.recv_timeout(HANG).unwrap(), "readyok");
    }
}

#[test]
fn a_command_right_after_stop_finds_the_engine_idle() {
    let (mut uci, rx) = session();
    uci.handle("go infinite");
    until(&rx, "info depth 3");
    uci.handle("stop");
    uci.handle("setoption name Hash value 2");
    uci.handle("setoption name Clear Hash");
    uci.handle("go depth 4");
    let lines = until_bestmove(&rx);
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{lines:#?}");
    let second = until_bestmove(&rx);
    assert!(second.iter().all(|l| !l.starts_with("info string")), "an option was refused: {second:#?}");
    assert!(second.iter().any(|l| l.starts_with("info depth 4")), "{second:#?}");
}
