//! Guid & Bratko 2012, Fig. 1 (Dvoretsky's position) and its earlier analog:
//! fortress avoidance with Bastion's own engine.

use std::path::Path;

use bastion_fortress::{analyse, Config, Verdict};

/// The positions of `tests/data/seed_figures.tsv` by id.
fn figure(id: &str) -> String {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/seed_figures.tsv"));
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|c| c[0] == id)
        .map(|c| c[1].to_owned())
        .unwrap_or_else(|| panic!("{id} in seed_figures.tsv"))
}

fn bastion() -> bastion_uci_client::Engine {
    let bin = bastion_test_engine::cargo_bin("bastion-cli", "bastion");
    bastion_uci_client::Engine::spawn(&bin.display().to_string(), &[]).expect("bastion speaks UCI")
}

#[test]
fn fig1_the_queen_capture_is_flagged_as_entering_a_fortress() {
    let mut e = bastion();
    let cfg = Config { max_depth: 12, avoid: true, breakthrough: false, ..Config::default() };
    let a = analyse(&figure("fig1_analog"), &cfg, &mut e).unwrap();
    let av = a.avoidance.expect("asked for");
    // The engine's favourite is the capture, scored far ahead of the rest.
    assert_eq!(av.judged[0].san, "Nxb6+");
    assert!(av.judged[0].eval.pawns() > 3.0, "{:?}", av.judged[0].eval);
    assert_eq!(av.judged[0].verdict, Verdict::Fortress, "{}", av.judged[0].reason);
    assert!(av.best_is_fortress);
    // The progress test saw the collapse after the recapture: the capture
    // keeps the edge for a move, then nothing can change.
    let test = av.judged[0].progress_test.as_ref().expect("the test ran");
    assert!(test.steps.iter().any(|s| s.collapsed), "{test:?}");
}

#[test]
fn fig1_after_the_capture_is_a_fortress_whatever_the_level() {
    let mut e = bastion();
    let cfg = Config { max_depth: 12, breakthrough: false, ..Config::default() };
    let a = analyse(&figure("fig1_analog_after"), &cfg, &mut e).unwrap();
    assert_eq!(a.verdict, Verdict::Fortress, "{}", a.evidence.reason);
    assert!(a.evidence.advantage > 3.0, "Bastion's evaluation is far ahead: {}", a.evidence.final_eval);
}

#[test]
#[ignore = "about a minute: a benchmark-sized run, its command in docs/fortress.md"]
fn fig1_dvoretskys_position_flags_the_capture_and_the_pawn_offer() {
    // The position itself (not the analog), at the depth of the documented
    // run (at depth 12 the progress test after the capture still holds):
    // the capture is the engine's favourite, and after it the side ahead
    // spends seven irreversible changes (cxb6 a4 h4 gxh4 h3 gxh3 h4, most of
    // them the defender's or free pushes) before the score collapses.
    let mut e = bastion();
    let cfg = Config { max_depth: 20, avoid: true, breakthrough: false, ..Config::default() };
    let a = analyse(&figure("fig1"), &cfg, &mut e).unwrap();
    let av = a.avoidance.expect("asked for");
    assert_eq!(av.judged[0].san, "Nxb6+");
    assert!(av.judged[0].eval.pawns() > 3.0, "{:?}", av.judged[0].eval);
    assert_eq!(av.judged[0].verdict, Verdict::Fortress, "{}", av.judged[0].reason);
    assert!(av.best_is_fortress);
    // 1.h4 is Bastion's second choice; its own line is 1...Qa7 2.hxg5, but
    // the defender may take (1...gxh4), and then the engine's move is the
    // capture of the queen: h4 is flagged too.
    if let Some(h4) = av.judged.iter().find(|j| j.san == "h4") {
        assert_eq!(h4.verdict, Verdict::Fortress, "{}", h4.reason);
    }
    // What is proposed keeps the queens on: a queen move, as in both
    // published wins (Dvoretsky's Qd2, the later analysis's Qb1).
    let alt = av.alternative.expect("another move is proposed");
    assert!(alt.san.starts_with('Q'), "{}", alt.san);
}

#[test]
fn fig1_after_the_capture_the_queen_cannot_get_in() {
    let mut e = bastion();
    let cfg = Config { max_depth: 12, breakthrough: false, ..Config::default() };
    let a = analyse(&figure("fig1_after"), &cfg, &mut e).unwrap();
    assert_eq!(a.verdict, Verdict::Fortress, "{}", a.evidence.reason);
    assert!(a.evidence.advantage > 3.0, "Bastion's evaluation is far ahead: {}", a.evidence.final_eval);
}

#[test]
#[ignore = "needs Debian stockfish and about two minutes: a benchmark-sized run, its command in docs/fortress.md"]
fn fig1_with_stockfish_flags_the_capture_and_proposes_a_quiet_move() {
    // Stockfish's favourite is 1.h4, whose line 1...gxh4 2.Nxb6+ enters the
    // same fortress: both are flagged, and the move proposed instead keeps
    // the queens on. (It is 1.Qd2 at depth 20, the first move of Dvoretsky's
    // plan, but among ten quiet moves within 0.1 of each other: a pick, not
    // the plan understood, so the test does not insist on it.)
    let mut e = bastion_uci_client::Engine::from_command_line("/usr/games/stockfish").expect("Debian stockfish");
    e.set_option("Threads", "1").unwrap();
    let cfg = Config { max_depth: 20, avoid: true, breakthrough: false, ..Config::default() };
    let a = analyse(&figure("fig1"), &cfg, &mut e).unwrap();
    let av = a.avoidance.expect("asked for");
    let capture = av.judged.iter().find(|j| j.san == "Nxb6+").expect("the capture is among the top moves");
    assert_eq!(capture.verdict, Verdict::Fortress, "{}", capture.reason);
    assert!(av.best_is_fortress, "{:?}", av.judged.iter().map(|j| (&j.san, j.verdict)).collect::<Vec<_>>());
    let alt = av.alternative.expect("an alternative");
    assert!(!alt.san.contains('x'), "a quiet move: {}", alt.san);
    assert_ne!(alt.verdict, Verdict::Fortress);
}

#[test]
fn fig3_the_breakthrough_search_ranks_g4_first() {
    // Flat curves at +6.5 for five king moves (the seed's Fig. 4 picture);
    // g4's own curve stays lower (Bastion scores the pawn it gives), but the
    // progress test had to start its held line with it.
    let mut e = bastion();
    let cfg = Config { max_depth: 16, ..Config::default() };
    let a = analyse(&figure("fig3_analog"), &cfg, &mut e).unwrap();
    assert!(a.breakthrough_searched, "{}", a.evidence.reason);
    assert!(a.curves.iter().all(|c| c.san != "g4"), "g4 is not among the engine's top moves");
    let first = a.breakthroughs.first().expect("a candidate");
    assert_eq!(first.curve.san, "g4");
    assert!(first.by_progress_test);
    assert_eq!(a.verdict, Verdict::Progress, "{}", a.evidence.reason);
}
