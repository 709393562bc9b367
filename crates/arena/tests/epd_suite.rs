//! The EPD suite runner against the scripted test engine and, when
//! installed, Debian's engines.

use bastion_arena::referee::EngineConfig;
use bastion_arena::suite::{run_suite, SuiteConfig};
use bastion_core::epd::Epd;
use std::time::Duration;

/// The fake engine playing legal chess with `flags`.
fn fake(flags: &str) -> String {
    format!("{} {flags}", bastion_test_engine::command())
}

fn suite(name: &str) -> Vec<Epd> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Epd::parse(l).unwrap())
        .collect()
}

fn config(command: String, times_ms: &[u64]) -> SuiteConfig {
    SuiteConfig {
        engine: EngineConfig { name: "test".into(), command, ..EngineConfig::default() },
        times: times_ms.iter().map(|&t| Duration::from_millis(t)).collect(),
        threads: Some(1),
        hash: Some(16),
        margin: Duration::from_secs(5),
        nodes: None,
    }
}

#[test]
fn solved_counts_times_and_failures() {
    let entries = suite("suite.epd");
    let cfg = config(fake("--play greedy --think-ms 150"), &[2000, 50]);
    let mut seen = Vec::new();
    let report = run_suite(&entries, &cfg, &|| false, |r| seen.push(r.index)).unwrap();
    assert_eq!(seen, vec![1, 2, 3, 4]);
    assert_eq!(report.positions, 4);
    assert_eq!(report.solved, 2);
    assert_eq!(report.limit, 2.0);
    // The solution shows up in the PV only after 150 ms: none by 50 ms, both by 2 s.
    assert_eq!(report.table, vec![(0.05, 0), (2.0, 2)]);
    let cap = &report.results[0];
    assert!(cap.solved);
    assert_eq!(cap.found.as_deref(), Some("Rxd5"));
    let t = cap.solve_time.unwrap();
    assert!((0.14..2.0).contains(&t), "solve time {t}");
    let mate = &report.results[1];
    assert!(mate.solved);
    assert_eq!(mate.score.as_deref(), Some("#1"));
    let failures: Vec<_> = report.failures().map(|r| r.id.clone().unwrap()).collect();
    assert_eq!(failures, vec!["avoid", "no-criteria"]);
    assert!(report.results[3].error.as_deref().unwrap().contains("no bm"));
    let text = report.to_text();
    assert!(text.contains("solved 2/4"));
    assert!(text.contains("avoid: expected am Rxd5, engine played Rxd5"));
}

#[test]
fn engine_failure_is_reported_and_the_engine_restarted() {
    let entries = suite("suite.epd");
    let cfg = config(fake("--play greedy --crash-after 1"), &[300]);
    let report = run_suite(&entries[..3], &cfg, &|| false, |_| {}).unwrap();
    assert!(report.results[0].solved);
    assert!(report.results[1].error.is_some(), "{:?}", report.results[1]);
    // The restarted engine plays the capture the third position forbids.
    assert_eq!(report.results[2].found.as_deref(), Some("Rxd5"));
    assert!(run_suite(&entries, &config("/nonexistent/engine".into(), &[100]), &|| false, |_| {}).is_err());
}

fn debian(name: &str) -> String {
    let games = format!("/usr/games/{name}");
    if std::path::Path::new(&games).exists() {
        games
    } else {
        name.to_string()
    }
}

#[test]
#[ignore = "needs Debian engines; run by .ci/run"]
fn debian_engines_solve_easy_wac_positions() {
    let wac = concat!(env!("CARGO_MANIFEST_DIR"), "/../core/tests/data/epd/wac.epd");
    let entries: Vec<Epd> =
        std::fs::read_to_string(wac).unwrap().lines().take(6).map(|l| Epd::parse(l).unwrap()).collect();
    for engine in ["stockfish", "toga2", "ethereal-chess", "glaurung"] {
        let report = run_suite(&entries, &config(debian(engine), &[100, 500]), &|| false, |_| {}).unwrap();
        assert!(report.results.iter().all(|r| r.error.is_none()), "{engine}: {}", report.to_text());
        assert!(report.solved >= 4, "{engine}: {}", report.to_text());
        assert!(report.table[0].1 <= report.table[1].1);
    }
}
