//! Options sent right after `bestmove`, as python-chess (`configure` after `analyse`) and
//! cutechess (Hash, Clear Hash between games) send them: the session must take every one,
//! however soon it arrives after the search thread printed `bestmove`.

mod common;

use common::{field, session, until_bestmove};

/// The options a search ran with, read from its `info` lines: whether they show WDL and
/// the number of MultiPV lines.
fn seen_options(lines: &[String]) -> (bool, usize) {
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth") && l.contains(" pv ")).collect();
    assert!(!infos.is_empty(), "no info lines: {lines:#?}");
    let wdl = infos.iter().filter(|l| l.contains(" wdl ")).count();
    assert!(wdl == 0 || wdl == infos.len(), "WDL on some lines only: {lines:#?}");
    let multipv = infos.iter().filter_map(|l| field(l, "multipv")?.parse().ok()).max().unwrap_or(0);
    (wdl > 0, multipv)
}

#[test]
fn options_sent_right_after_bestmove_are_never_lost() {
    let (mut uci, rx) = session();
    uci.handle("position startpos moves e2e4");
    uci.handle("go nodes 2000");
    until_bestmove(&rx);
    let mut lost = Vec::new();
    for round in 0..200 {
        // Each round changes both options; every other round also syncs with isready
        // first, which must then find the engine idle too.
        let wdl = round % 2 == 0;
        let multipv = 1 + round % 3;
        if round % 4 == 1 {
            uci.handle("isready");
        }
        uci.handle(&format!("setoption name UCI_ShowWDL value {wdl}"));
        uci.handle(&format!("setoption name MultiPV value {multipv}"));
        uci.handle("go nodes 2000");
        let lines = until_bestmove(&rx);
        if let Some(refusal) = lines.iter().find(|l| l.starts_with("info string")) {
            lost.push(format!("round {round}: {refusal}"));
        }
        if seen_options(&lines) != (wdl, multipv) {
            lost.push(format!("round {round}: asked for WDL {wdl}, MultiPV {multipv}; got {:?}", seen_options(&lines)));
        }
    }
    assert!(lost.is_empty(), "{} of 200 rounds lost an option: {lost:#?}", lost.len());
}

#[test]
fn isready_after_bestmove_answers_when_idle() {
    let (mut uci, rx) = session();
    for _ in 0..50 {
        uci.handle("go depth 3");
        until_bestmove(&rx);
        uci.handle("isready");
        assert_eq!(rx.recv_timeout(common::HANG).unwrap(), "readyok");
        // Idle: a button option (which needs the engine in hand) is taken silently.
        uci.handle("setoption name Clear Hash");
        uci.handle("setoption name Hash value 2");
        assert!(rx.try_recv().is_err(), "an option was refused");
    }
}
