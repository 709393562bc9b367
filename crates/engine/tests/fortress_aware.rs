//! The `FortressAware` option: its UCI registration and parsing, the `info string fortress:`
//! reasons on constructed fortresses, the decision it changes (the capture that lets a
//! fortress be built), and that a search it does not touch is the same search as without it.

mod common;

use bastion_core::Position;
use bastion_engine::{Engine, EngineOptions, Limits, Score, SearchResult};
use std::sync::{Arc, Mutex};

/// A reconstruction of Guid & Bratko 2012, Fig. 1 (`crates/fortress/tests/data/seed_figures.tsv`):
/// 1.Nxb6+? cxb6 completes a locked barrier on all eight files.
const FIG1_ANALOG: &str = "2k5/2p1b3/1q1p4/pPpPp1p1/N1P1PpPp/5P1P/KQ6/8 w - - 0 1";
/// A rook up behind a complete locked barrier (`docs/fortress.md`): a dead draw that the
/// evaluation scores about +8.
const ROOK_BEHIND_BARRIER: &str = "4k3/8/2p1p3/1pPpPp1p/pP1P1PpP/P5P1/8/2R1K3 w - - 0 1";

/// The output lines of a session that reads `input` to its end.
fn run_session(input: &str) -> Vec<String> {
    let (uci, rx) = common::session_with(EngineOptions { hash_mb: 16, ..EngineOptions::default() });
    uci.run(input.as_bytes());
    rx.try_iter().collect()
}

fn engine(fortress_aware: bool) -> Engine {
    Engine::new(EngineOptions { hash_mb: 16, fortress_aware, ..EngineOptions::default() })
}

/// Searches `fen` and collects the engine's `info string` messages.
fn search(e: &mut Engine, fen: &str, limits: &Limits) -> (SearchResult, Vec<String>) {
    let messages = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&messages);
    e.set_message_report(Some(Arc::new(move |m: &str| sink.lock().unwrap().push(m.to_string()))));
    let pos = Position::from_fen(fen).unwrap();
    let r = e.search(&pos, &[], limits, &mut |_| {});
    let m = messages.lock().unwrap().clone();
    (r, m)
}

fn uci(fen: &str, r: &SearchResult) -> String {
    Position::from_fen(fen).unwrap().to_uci(r.best.unwrap())
}

#[test]
fn the_option_is_listed_off_by_default_and_parsed() {
    assert!(!EngineOptions::default().fortress_aware);
    let out = run_session(
        "uci\nsetoption name FortressAware value true\nsetoption name fortressaware value FALSE\n\
         setoption name FortressAware value maybe\nisready\n",
    );
    assert!(out.contains(&"option name FortressAware type check default false".to_string()), "{out:?}");
    let errors: Vec<&String> = out.iter().filter(|l| l.contains("FortressAware")).collect();
    assert_eq!(errors.len(), 2, "the listing and one refused value: {errors:?}");
    assert!(errors[1].starts_with("info string setoption \"FortressAware\": value \"maybe\" is not true/false"));
    assert_eq!(out.last().map(String::as_str), Some("readyok"));
}

#[test]
fn the_capture_that_completes_the_barrier_is_flagged_and_avoided() {
    let limits = Limits::depth(16);
    let (off, messages) = search(&mut engine(false), FIG1_ANALOG, &limits);
    assert_eq!(uci(FIG1_ANALOG, &off), "a4b6", "without the option the engine takes the queen");
    assert!(messages.is_empty());
    let (on, messages) = search(&mut engine(true), FIG1_ANALOG, &limits);
    assert_ne!(uci(FIG1_ANALOG, &on), "a4b6", "{messages:?}");
    assert!(messages.iter().any(|m| m.starts_with("fortress: after Nxb6+")), "{messages:?}");
    assert!(messages.iter().any(|m| m.starts_with("fortress: playing")), "{messages:?}");
    assert!(on.value < off.value, "the capture's score is pulled: {} vs {}", on.value, off.value);
}

#[test]
fn a_rook_behind_a_locked_barrier_is_scored_towards_the_draw() {
    let limits = Limits::depth(14);
    let (off, _) = search(&mut engine(false), ROOK_BEHIND_BARRIER, &limits);
    assert!(off.value >= 400, "the evaluation counts the rook: {}", off.value);
    let (on, messages) = search(&mut engine(true), ROOK_BEHIND_BARRIER, &limits);
    assert!(on.value.abs() <= 50, "pulled to the draw: {} ({messages:?})", on.value);
    assert!(messages.iter().any(|m| m.contains("suspected fortress")), "{messages:?}");
    assert_eq!(on.lines[0].value, on.value, "the reported line carries the pulled score");
}

#[test]
fn the_info_string_reaches_the_uci_output() {
    let out = run_session(&format!(
        "setoption name FortressAware value true\nposition fen {ROOK_BEHIND_BARRIER}\ngo depth 14\nisready\n"
    ));
    let info = out.iter().position(|l| l.starts_with("info string fortress: ")).expect("a fortress line");
    let best = out.iter().position(|l| l.starts_with("bestmove ")).expect("bestmove");
    assert!(info < best, "{out:?}");
    // The last score reported before `bestmove` is the pulled one.
    let last_score = out[..best].iter().rev().find(|l| l.contains(" score cp ")).unwrap();
    let cp: i32 = last_score.split_whitespace().skip_while(|&t| t != "cp").nth(1).unwrap().parse().unwrap();
    assert!(cp.abs() <= 50, "{last_score}");
}

#[test]
fn searches_the_phase_does_not_touch_are_the_same_as_without_the_option() {
    // Level positions (no trigger), a pawnless win (never tested), a won pawn ending whose
    // test holds and a slow win with a passed pawn: the same move, score and main search.
    for fen in [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
        "8/5k2/8/8/3PK3/8/8/8 w - - 0 1",
        // A tablebase win (KBPK after 1.axb6) that the test at k = 3 and 5 takes for a
        // fortress: the passed pawn keeps the phase out, and 1.Bxb6 (a draw) is not played.
        "2k5/7K/1p6/P7/8/4B3/8/8 w - - 0 1",
    ] {
        let limits = Limits::depth(12);
        let (off, _) = search(&mut engine(false), fen, &limits);
        let (on, messages) = search(&mut engine(true), fen, &limits);
        assert_eq!((off.best, off.score, off.depth), (on.best, on.score, on.depth), "{fen}: {messages:?}");
        assert!(messages.is_empty(), "{fen}: {messages:?}");
    }
}

#[test]
fn stop_during_the_phase_ends_the_search_with_the_main_result() {
    let mut e = engine(true);
    let stopper = e.control();
    let messages = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&messages);
    // Stop from inside the phase: its first message is sent between two of its searches.
    e.set_message_report(Some(Arc::new(move |m: &str| {
        sink.lock().unwrap().push(m.to_string());
        stopper.stop();
    })));
    let pos = Position::from_fen(ROOK_BEHIND_BARRIER).unwrap();
    let r = e.search(&pos, &[], &Limits::depth(14), &mut |_| {});
    let messages = messages.lock().unwrap().clone();
    assert_eq!(messages.len(), 1, "no search of the phase after stop: {messages:?}");
    assert!(r.best.is_some());
    assert!(r.value >= 400, "a stopped phase changes nothing: {}", r.value);
    // The flag is reset for the next search, which runs the phase again.
    let (again, messages) = search(&mut e, ROOK_BEHIND_BARRIER, &Limits::depth(14));
    assert!(again.value.abs() <= 50 && !messages.is_empty(), "{} {messages:?}", again.value);
}

#[test]
fn a_timed_search_with_the_phase_keeps_to_its_time() {
    let mut e = engine(true);
    let (r, messages) = search(&mut e, ROOK_BEHIND_BARRIER, &Limits::movetime(500));
    assert!(r.time_ms < 5_000, "{} ms for a 500 ms search", r.time_ms);
    assert!(r.best.is_some());
    // The phase ran within the time: its reason was given.
    assert!(!messages.is_empty() || r.value >= 400, "{messages:?}");
    assert!(matches!(r.score, Score::Cp(_)));
}
