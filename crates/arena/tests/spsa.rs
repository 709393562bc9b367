//! SPSA against the test engine, whose `Greed` option makes it stronger the higher it is.

use bastion_arena::openings::{self, Opening};
use bastion_arena::referee::{Adjudication, EngineConfig, RefereeConfig};
use bastion_arena::spsa::{run_spsa, SpsaConfig, SpsaError, SpsaParam, SpsaState};
use bastion_arena::time_control::TimeControl;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

fn openings_file() -> Vec<Opening> {
    openings::load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.epd")).unwrap()
}

fn config(param: &str, iterations: u64, state: Option<PathBuf>) -> SpsaConfig {
    let command = format!("{} --play random --seed 11", bastion_test_engine::command());
    SpsaConfig {
        engine: EngineConfig { name: "fake".into(), command, ..EngineConfig::default() },
        params: vec![SpsaParam::parse(param).unwrap()],
        iterations,
        referee: RefereeConfig {
            time_control: TimeControl::Nodes(1),
            move_timeout: Duration::from_secs(10),
            adjudication: Adjudication { max_moves: Some(80), ..Adjudication::default() },
            ..RefereeConfig::default()
        },
        openings: openings_file(),
        concurrency: 2,
        seed: 5,
        state,
    }
}

#[test]
fn spsa_raises_an_option_that_makes_the_engine_stronger() {
    let cfg = config("Greed, int, 20, 0, 100, 15, 0.05", 40, None);
    let mut batches = 0;
    let state = run_spsa(&cfg, Arc::new(AtomicBool::new(false)), |_| batches += 1).unwrap();
    assert_eq!((state.iterations_done, batches), (40, 20), "two pairs a batch");
    assert_eq!(state.wdl.iter().sum::<u64>(), 80);
    // Whichever side was the greedier won more often, and the value follows it (from 20
    // to 50-57 with seeds 1, 2, 3 and 5).
    assert!(state.params[0].value > 35.0, "Greed went from 20 to {}", state.params[0].value);
    assert!(state.options().starts_with("option.Greed="));
}

#[test]
fn a_run_resumes_from_its_state_file_and_refuses_another_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let cfg = config("Greed, int, 50, 0, 100, 10, 0.01", 6, Some(path.clone()));
    let stop = Arc::new(AtomicBool::new(false));
    let done = run_spsa(&cfg, stop.clone(), |_| {}).unwrap();
    assert_eq!(done.iterations_done, 6);
    let saved: SpsaState = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved, done);
    // Run again: nothing left to play, the state is as saved.
    let mut calls = 0;
    assert_eq!(run_spsa(&cfg, stop.clone(), |_| calls += 1).unwrap(), done);
    assert_eq!(calls, 0);
    // A half-done state continues to the end.
    let mut half = done.clone();
    half.iterations_done = 2;
    std::fs::write(&path, serde_json::to_string(&half).unwrap()).unwrap();
    let mut seen = Vec::new();
    let again = run_spsa(&cfg, stop.clone(), |s| seen.push(s.iterations_done)).unwrap();
    assert_eq!(seen, [4, 6]);
    assert_eq!(again.iterations_done, 6);
    // Another run's parameters, or a file that is not a state, are refused with the path.
    let other = config("Greed, int, 50, 0, 100, 10, 0.01", 8, Some(path.clone()));
    let err = run_spsa(&other, stop.clone(), |_| {}).unwrap_err();
    assert!(matches!(err, SpsaError::Config(ref m) if m.contains("another run")), "{err}");
    std::fs::write(&path, "{ not json").unwrap();
    assert!(matches!(run_spsa(&cfg, stop.clone(), |_| {}), Err(SpsaError::Config(_))));
    // A set stop flag plays nothing.
    let _ = std::fs::remove_file(&path);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(run_spsa(&cfg, stop, |_| {}).unwrap().iterations_done, 0);
}

#[test]
fn an_engine_that_cannot_start_stops_the_run() {
    let mut cfg = config("Greed, int, 50, 0, 100, 10, 0.01", 4, None);
    cfg.engine.command = "/nonexistent/engine".into();
    let err = run_spsa(&cfg, Arc::new(AtomicBool::new(false)), |_| {}).unwrap_err();
    assert!(matches!(err, SpsaError::Engine { pair: 0, .. }), "{err}");
}
