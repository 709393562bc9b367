//! `bastion spsa` as a user runs it: a short run against the test engine, its resumable state
//! file, and clear errors for bad parameter files and missing limits.

mod common;

use common::bastion;
use std::path::{Path, PathBuf};

/// The path `name` in `dir`, a file holding `text` if there is one.
fn temp(dir: &Path, name: &str, text: Option<&str>) -> PathBuf {
    let path = dir.join(name);
    if let Some(t) = text {
        std::fs::write(&path, t).unwrap();
    }
    path
}

#[test]
fn a_short_run_prints_the_tuned_values_and_resumes_from_its_state() {
    let dir = tempfile::tempdir().unwrap();
    let params =
        temp(dir.path(), "params.txt", Some("# the fake engine's one option\nGreed, int, 40, 0, 100, 10, 0.01\n"));
    let state = temp(dir.path(), "state.json", None);
    let engine = format!("cmd={} --play random --seed 3", bastion_test_engine::command());
    let args = [
        "spsa",
        "--engine",
        &engine,
        "--params",
        params.to_str().unwrap(),
        "--iterations",
        "4",
        "--state",
        state.to_str().unwrap(),
        "--nodes",
        "1",
        "--max-moves",
        "40",
        "--concurrency",
        "2",
    ];
    let out = bastion(&args);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("SPSA 4/4 pairs"), "{stdout}");
    assert!(stdout.contains("Greed, int, ") && stdout.contains("option.Greed="), "{stdout}");
    assert!(stderr.contains("pairs 2/4") && stderr.contains("pairs 4/4"), "{stderr}");
    // Run again: the state file says the run is done, so nothing is played and the values stay.
    let again = bastion(&args);
    assert!(again.status.success());
    assert_eq!(String::from_utf8_lossy(&again.stdout), stdout);
    assert!(again.stderr.is_empty(), "{}", String::from_utf8_lossy(&again.stderr));
}

#[test]
fn bad_parameter_files_and_missing_limits_are_clear_errors() {
    let engine = format!("cmd={} --play random", bastion_test_engine::command());
    let dir = tempfile::tempdir().unwrap();
    let state = temp(dir.path(), "never.json", None);
    for (text, expected) in [
        ("Greed, int, 40, 0, 100, 10\n", "line 1"),
        ("# comment\nGreed, int, 400, 0, 100, 10, 0.01\n", "outside"),
        ("", "no parameters"),
    ] {
        let params = temp(dir.path(), "bad.txt", Some(text));
        let out = bastion(&[
            "spsa",
            "--engine",
            &engine,
            "--params",
            params.to_str().unwrap(),
            "--iterations",
            "2",
            "--state",
            state.to_str().unwrap(),
            "--nodes",
            "1",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(expected), "{text:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let params = temp(dir.path(), "ok.txt", Some("Greed, int, 40, 0, 100, 10, 0.01\n"));
    let p = params.to_str().unwrap();
    let out = bastion(&["spsa", "--engine", &engine, "--params", p, "--iterations", "2", "--state", "x.json"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("give a limit"));
    assert!(!state.exists(), "no state written by a run that never started");
}
