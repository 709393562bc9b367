//! The reconstruction of Guid & Bratko 2012, Fig. 1 (Dvoretsky's position):
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
