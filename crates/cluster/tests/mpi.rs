//! `bastion cluster epd` under mpirun: the report equals `bastion epd`'s at fixed nodes with 2
//! and 4 ranks, and a rank that dies or hangs ends the job with a message from rank 0.
//!
//! These need Open MPI's `mpirun` and a `bastion` built with `--features mpi`, whose path is in
//! `BASTION_MPI_BIN`; `scripts/ci-mpi.sh` provides both and runs them with `-- --ignored`.
#![cfg(feature = "mpi")]

mod common;

use common::{bastion, mpirun, mpirun_for_a_killed_rank, output_within, pgn_without_times, spawn_watched, text};
use std::process::{Child, Command};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

fn suite() -> String {
    format!("{}/tests/data/wac12.epd", env!("CARGO_MANIFEST_DIR"))
}

/// The engine every rank starts: the same binary's UCI engine.
fn engine() -> String {
    format!("'{}' uci", bastion().display())
}

/// The JSON report without solve times, which depend on the machine's load.
fn without_times(json: &[u8]) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_slice(json).expect("one JSON document");
    for r in v["results"].as_array_mut().expect("results") {
        r["solve_time"] = serde_json::Value::Null;
    }
    v
}

const FIXED: [&str; 4] = ["--nodes", "20000", "--threads", "1"];

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn reports_at_two_and_four_ranks_equal_the_single_process_report() {
    let engine = engine();
    let single = |json: bool| {
        let mut c = Command::new(bastion());
        c.args(["epd", &suite(), "--engine", &engine]).args(FIXED);
        if json {
            c.arg("--json");
        }
        let out = output_within(c, Duration::from_secs(300));
        assert!(out.status.success(), "bastion epd: {}", text(&out.stderr));
        out.stdout
    };
    let (single_text, single_json) = (single(false), single(true));
    assert!(text(&single_text).contains("/12 at 20000 nodes"), "{}", text(&single_text));
    for ranks in [2, 4] {
        for json in [false, true] {
            let suite = suite();
            let mut args = vec!["cluster", "epd", &suite, "--engine", &engine];
            args.extend(FIXED);
            if json {
                args.push("--json");
            }
            let out = output_within(mpirun(ranks, &args), Duration::from_secs(300));
            let err = text(&out.stderr);
            assert!(out.status.success(), "{ranks} ranks: {err}");
            for rank in 0..ranks {
                assert!(err.contains(&format!("rank {rank} of {ranks}: pid ")), "rank {rank} joins: {err}");
            }
            if json {
                assert_eq!(without_times(&out.stdout), without_times(&single_json), "{ranks} ranks, JSON");
            } else {
                assert_eq!(text(&out.stdout), text(&single_text), "{ranks} ranks, text");
            }
        }
    }
}

/// Starts a long suite on `ranks` ranks with `launch` ([`mpirun`] or
/// [`mpirun_for_a_killed_rank`]) and returns the job with rank 1's pid, once rank 1 has
/// finished a position (so that it is in the middle of its next one).
fn start_long_job(
    launch: fn(usize, &[&str]) -> Command,
    ranks: usize,
    extra: &[&str],
) -> (Child, u32, mpsc::Receiver<String>) {
    let engine = engine();
    let suite = suite();
    let mut args = vec!["cluster", "epd", &suite, "--engine", &engine, "--nodes", "1000000", "--threads", "1"];
    args.extend(extra);
    let (job, rx) = spawn_watched(launch(ranks, &args));
    let mut pid = None;
    let since = Instant::now();
    loop {
        let line = rx.recv_timeout(Duration::from_secs(120)).expect("the job reports rank 1 at work");
        if let Some(rest) = line.strip_prefix(&format!("rank 1 of {ranks}: pid ")) {
            pid = rest.split_whitespace().next().and_then(|p| p.parse().ok());
        }
        if pid.is_some() && line.ends_with("[rank 1]") {
            break;
        }
        assert!(since.elapsed() < Duration::from_secs(300), "rank 1 finished no position");
    }
    (job, pid.unwrap(), rx)
}

/// Waits for the job to end (failing the test on a hang) and returns its exit status and
/// everything it printed on stderr after `start_long_job`.
fn finish(mut job: Child, rx: mpsc::Receiver<String>) -> (std::process::ExitStatus, String) {
    let since = Instant::now();
    let status = loop {
        if let Some(status) = job.try_wait().unwrap() {
            break status;
        }
        if since.elapsed() > Duration::from_secs(120) {
            let _ = job.kill();
            let said: Vec<String> = rx.try_iter().collect();
            panic!("the job did not end within 120 s after the rank was lost: a hang\n{}", said.join("\n"));
        }
        thread::sleep(Duration::from_millis(50));
    };
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(5)) {
        lines.push(line);
    }
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut job.stdout.take().unwrap(), &mut stdout).unwrap();
    assert!(stdout.is_empty(), "no report from an unfinished run: {stdout}");
    (status, lines.join("\n"))
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_killed_worker_ends_the_job_with_a_message_from_rank_zero() {
    let (job, pid, rx) = start_long_job(mpirun_for_a_killed_rank, 3, &[]);
    let killed = Command::new("kill").args(["-9", &pid.to_string()]).status().unwrap();
    assert!(killed.success());
    let (status, err) = finish(job, rx);
    assert!(!status.success(), "{err}");
    // mpirun ends the other ranks; rank 0 says what was lost before it goes.
    assert!(err.contains("error: stopped from outside after "), "{err}");
    assert!(err.contains("of 12 items"), "{err}");
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_hung_worker_is_found_by_rank_zero_and_ends_the_job() {
    let (job, pid, rx) = start_long_job(mpirun, 3, &["--rank-timeout", "2s"]);
    // A stopped process neither dies nor answers: only the heartbeat can tell.
    assert!(Command::new("kill").args(["-STOP", &pid.to_string()]).status().unwrap().success());
    let (status, err) = finish(job, rx);
    let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    assert!(!status.success(), "{err}");
    let expected = format!("error: rank 1 (pid {pid} on ");
    assert!(err.contains(&expected), "{err}");
    assert!(err.contains("sent nothing for 2 s while it held item"), "{err}");
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_missing_suite_is_a_clear_error_from_rank_zero_alone() {
    let out = output_within(mpirun(2, &["cluster", "epd", "no-such-suite.epd"]), Duration::from_secs(120));
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert_eq!(err.matches("error: cannot read no-such-suite.epd").count(), 1, "{err}");
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_match_at_two_ranks_gives_the_report_and_pgn_of_bastion_match_and_resumes_as_it_does() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!("cmd={}", engine());
    let suite = suite();
    // Four games at fixed nodes from the suite's first two positions, against a second engine
    // that searches differently: every game is the same wherever it is played.
    let args = |pgn: &std::path::Path, games: &str, resume: bool| -> Vec<String> {
        let mut a: Vec<String> = vec!["--engine".into(), "name=A".into(), engine.clone(), "--engine".into()];
        a.extend(["name=B", &engine, "option.NullMove=false", "option.LateMoveReductions=false"].map(String::from));
        a.extend(
            ["--openings", &suite, "--repeat", "--games", games, "--nodes", "300", "--max-moves", "60"]
                .map(String::from),
        );
        a.extend(["--pgn".to_string(), pgn.display().to_string()]);
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let single_pgn = dir.path().join("single.pgn");
    let cluster_pgn = dir.path().join("cluster.pgn");
    let read = |p: &std::path::Path| pgn_without_times(&std::fs::read_to_string(p).unwrap());
    // Four games, then two more resumed from each run's own PGN file.
    for (games, resume) in [("4", false), ("6", true)] {
        let mut c = Command::new(bastion());
        c.arg("match").args(args(&single_pgn, games, resume));
        let single = output_within(c, Duration::from_secs(300));
        assert!(single.status.success(), "bastion match: {}", text(&single.stderr));

        let mut cluster_args = vec!["cluster".to_string(), "match".to_string()];
        cluster_args.extend(args(&cluster_pgn, games, resume));
        let refs: Vec<&str> = cluster_args.iter().map(String::as_str).collect();
        let out = output_within(mpirun(2, &refs), Duration::from_secs(300));
        let err = text(&out.stderr);
        assert!(out.status.success(), "cluster match: {err}");
        assert!(err.contains("rank 1 of 2: pid "), "{err}");
        assert_eq!(without_seconds(&text(&out.stdout)), without_seconds(&text(&single.stdout)));
        assert!(text(&out.stdout).contains(&format!("Games {games}/{games}")), "{}", text(&out.stdout));
        assert_eq!(read(&cluster_pgn), read(&single_pgn));
    }
}

/// A match report without the wall seconds of its `Time use of …` lines, which differ from run
/// to run while the moves and depths must not.
fn without_seconds(report: &str) -> String {
    report
        .lines()
        .map(|l| l.split(", ").filter(|part| !part.ends_with(" s a move")).collect::<Vec<_>>().join(", "))
        .collect::<Vec<_>>()
        .join("\n")
}
