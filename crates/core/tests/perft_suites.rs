//! Every position of the shared perft suites must match at depth 4 (the suites
//! list deeper counts too; `bastion perft --suite` checks those in release runs).

use bastion_core::perft::{parse_suite, perft, PerftCase};
use std::sync::atomic::{AtomicUsize, Ordering};

const MAX_DEPTH: u32 = 4;

fn check_suite(name: &str, chess960: bool) {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let cases = parse_suite(&text).unwrap();
    assert!(!cases.is_empty());
    let next = AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let checked = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                run_case(case, chess960, &failures, &checked);
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{name}: {} failures, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    let expected_checks: usize = cases.iter().map(|c| c.expected.iter().filter(|(d, _)| *d <= MAX_DEPTH).count()).sum();
    assert_eq!(checked.load(Ordering::Relaxed), expected_checks);
}

fn run_case(case: &PerftCase, chess960: bool, failures: &std::sync::Mutex<Vec<String>>, checked: &AtomicUsize) {
    // The `xfen-` cases of tricky.perft are Chess960 positions written in X-FEN.
    let pos = match case.position(chess960) {
        Ok(p) => p,
        Err(e) => {
            failures.lock().unwrap().push(format!("{} {}: {e}", case.id, case.fen));
            return;
        }
    };
    for &(depth, nodes) in case.expected.iter().filter(|(d, _)| *d <= MAX_DEPTH) {
        let got = perft(&pos, depth);
        checked.fetch_add(1, Ordering::Relaxed);
        if got != nodes {
            failures.lock().unwrap().push(format!("{} {} depth {depth}: got {got}, want {nodes}", case.id, case.fen));
        }
    }
}

#[test]
fn tricky_positions() {
    check_suite("tricky.perft", false);
}

#[test]
fn chess960_positions() {
    check_suite("chess960.perft", true);
}

#[test]
fn random_positions() {
    check_suite("random.perft", false);
}
