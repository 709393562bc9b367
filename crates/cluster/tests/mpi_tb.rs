//! `bastion cluster tb` under mpirun: the table written by 2 and 4 ranks is byte-identical to
//! `bastion tb gen`'s (a 4-man and a 5-man ending), a missing sub-table is one clear error
//! from rank 0, and a rank that dies or hangs ends the job with a message from rank 0 and no
//! file; a rerun after a killed rank resumes from the ranks' last checkpoint and writes the
//! same file.
//!
//! These need Open MPI's `mpirun` and a `bastion` built with `--features mpi`, whose path is in
//! `BASTION_MPI_BIN`; `scripts/ci-mpi.sh` provides both and runs them with `-- --ignored`.
#![cfg(feature = "mpi")]

mod common;

use common::{bastion, mpirun, mpirun_for_a_killed_rank, output_within, spawn_watched, text};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{mpsc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// `bastion tb gen ENDING` into a directory: the reference file and the sub-tables, made once
/// per test run (a five-man table takes a minute or more of CPU). They live in cargo's scratch
/// directory for integration tests (`target/tmp`), not the system's: a static is never
/// dropped, so a `TempDir` here would never be removed. Each run makes them afresh.
fn single_process(ending: &str) -> PathBuf {
    static MADE: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mpi-tb-single-{ending}"));
    if made.iter().any(|e| e == ending) {
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut c = Command::new(bastion());
    c.args(["tb", "gen", ending, "--dir"]).arg(&dir).args(["--threads", "2"]);
    let out = output_within(c, Duration::from_secs(600));
    assert!(out.status.success(), "tb gen {ending}: {}", text(&out.stderr));
    made.push(ending.to_string());
    dir
}

/// A new directory with every table of `from` but `ending`'s own.
fn sub_tables_only(from: &Path, ending: &str) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".btb") && name != format!("{ending}.btb") {
            std::fs::copy(&path, dir.path().join(name)).unwrap();
        }
    }
    dir
}

fn check_identical(ending: &str, rank_counts: &[usize], limit: Duration) {
    let single = single_process(ending);
    for &ranks in rank_counts {
        let dir = sub_tables_only(&single, ending);
        generate_and_compare(ending, ranks, dir.path(), &single, limit, &[]);
    }
}

/// Runs `cluster tb ENDING` on `ranks` ranks in `dir` and checks the file against the one in
/// `single`, and the report: every rank joined and gave its memory, the exchanges were counted.
/// Returns the report.
fn generate_and_compare(
    ending: &str,
    ranks: usize,
    dir: &Path,
    single: &Path,
    limit: Duration,
    extra: &[&str],
) -> String {
    let mut args = vec!["cluster", "tb", ending, "--dir", dir.to_str().unwrap(), "--threads", "1"];
    args.extend(extra);
    let out = output_within(mpirun(ranks, &args), limit);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{ranks} ranks: {stderr}");
    let written = std::fs::read(dir.join(format!("{ending}.btb"))).expect("rank 0 wrote the table");
    let expected = std::fs::read(single.join(format!("{ending}.btb"))).unwrap();
    assert!(written == expected, "{ending} at {ranks} ranks differs from tb gen's file");
    for rank in 0..ranks {
        assert!(stderr.contains(&format!("rank {rank} of {ranks}: pid ")), "rank {rank} joins: {stderr}");
        assert!(stdout.contains(&format!("rank {rank}: slice of ")), "rank {rank}'s memory: {stdout}");
    }
    assert!(stdout.contains("exchanged: ") && stdout.contains("wall time"), "{stdout}");
    stdout
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn krkn_at_two_and_four_ranks_equals_tb_gen() {
    check_identical("KRKN", &[2, 4], Duration::from_secs(300));
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_five_man_table_at_more_rank_counts_equals_tb_gen() {
    // The cheapest five-man tables are pawnless (121,110,528 indices per side); three like
    // men make most indices non-canonical, which initialisation skips at once. Four ranks are
    // covered by `a_killed_rank_ends_the_job_and_a_rerun_resumes_from_the_last_checkpoint`;
    // this test adds the rank counts in BASTION_MPI_TB_FIVE_MAN_RANKS (default 2). A run is
    // minutes on two cores: CI (scripts/ci-mpi.sh) sets it empty to keep its whole run within
    // budget.
    let ranks: Vec<usize> = match std::env::var("BASTION_MPI_TB_FIVE_MAN_RANKS") {
        Ok(v) => v
            .split(',')
            .filter(|r| !r.trim().is_empty())
            .map(|r| r.trim().parse().expect("rank counts like 2,3"))
            .collect(),
        Err(_) => vec![2],
    };
    if ranks.is_empty() {
        eprintln!(
            "BASTION_MPI_TB_FIVE_MAN_RANKS is empty: KRRRK is checked at 4 ranks only, by the killed and resumed run"
        );
    }
    check_identical("KRRRK", &ranks, Duration::from_secs(900));
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_missing_sub_table_is_one_clear_error_from_rank_zero() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let out =
        output_within(mpirun(2, &["cluster", "tb", "KRKN", "--dir", dir.to_str().unwrap()]), Duration::from_secs(120));
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert_eq!(err.matches("is missing in").count(), 1, "{err}");
    assert!(err.contains("bastion tb gen K"), "{err}");
    assert!(!dir.join("KRKN.btb").exists());
}

/// Starts `cluster tb KRRRK` on `ranks` ranks in `dir` with `launch` ([`mpirun`] or
/// [`mpirun_for_a_killed_rank`]) and returns the job, its stderr lines and rank 1's pid once
/// every rank has joined.
fn start_job(
    launch: fn(usize, &[&str]) -> Command,
    dir: &Path,
    ranks: usize,
    extra: &[&str],
) -> (std::process::Child, mpsc::Receiver<String>, u32) {
    let mut args = vec!["cluster", "tb", "KRRRK", "--dir", dir.to_str().unwrap(), "--threads", "1"];
    args.extend(extra);
    let (job, rx) = spawn_watched(launch(ranks, &args));
    let joined = format!("rank 1 of {ranks}: pid ");
    let mut pid = None;
    while pid.is_none() {
        let line = rx.recv_timeout(Duration::from_secs(120)).expect("rank 0 names rank 1");
        if let Some(rest) = line.strip_prefix(joined.as_str()) {
            pid = rest.split_whitespace().next().and_then(|p| p.parse().ok());
        }
    }
    // Into the generation proper (the sub-tables are loaded in well under a second).
    thread::sleep(Duration::from_secs(2));
    (job, rx, pid.unwrap())
}

/// Stderr lines until one contains `needle` (or `limit` passes), then the job is ended.
fn wait_for_line(mut job: std::process::Child, rx: &mpsc::Receiver<String>, needle: &str, limit: Duration) -> String {
    let since = Instant::now();
    let mut seen = Vec::new();
    while since.elapsed() < limit {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) => {
                let found = line.contains(needle);
                seen.push(line);
                if found {
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if job.try_wait().unwrap().is_some() {
                    // Lines still in the pipe.
                    while let Ok(line) = rx.recv_timeout(Duration::from_secs(2)) {
                        seen.push(line);
                    }
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let _ = job.kill();
    let _ = job.wait();
    seen.join("\n")
}

/// The checkpoint files of `dir`, by rank (`KRRRK.btb.r1of3.L12.ckpt` is rank 1's).
fn checkpoints_by_rank(dir: &Path, ranks: usize) -> Vec<usize> {
    let mut count = vec![0; ranks];
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap_or_default();
        for (rank, n) in count.iter_mut().enumerate() {
            if name.ends_with(".ckpt") && name.contains(&format!(".r{rank}of{ranks}.L")) {
                *n += 1;
            }
        }
    }
    count
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_killed_rank_ends_the_job_and_a_rerun_resumes_from_the_last_checkpoint() {
    // Four ranks: the five-man table at 4 ranks is compared with tb gen's here (its levels
    // before the checkpoint run in the killed job, the others in the rerun).
    let single = single_process("KRRRK");
    let tmp = sub_tables_only(&single, "KRRRK");
    let dir = tmp.path();
    let (job, rx, pid) = start_job(mpirun_for_a_killed_rank, dir, 4, &["--checkpoint-every", "1s"]);
    // Once every rank has written a checkpoint, they share a complete level.
    let since = Instant::now();
    while checkpoints_by_rank(dir, 4).contains(&0) {
        assert!(since.elapsed() < Duration::from_secs(300), "no checkpoint from every rank");
        thread::sleep(Duration::from_millis(100));
    }
    assert!(Command::new("kill").args(["-9", &pid.to_string()]).status().unwrap().success());
    let err = wait_for_line(job, &rx, "error: stopped from outside while generating KRRRK", Duration::from_secs(120));
    assert!(err.contains("error: stopped from outside while generating KRRRK"), "{err}");
    assert!(err.contains("run the command again"), "{err}");
    assert!(!dir.join("KRRRK.btb").exists(), "no file from an unfinished run");
    let report = generate_and_compare("KRRRK", 4, dir, &single, Duration::from_secs(900), &[]);
    assert!(report.contains("resumed from the checkpoint at level"), "{report}");
    assert_eq!(checkpoints_by_rank(dir, 4), vec![0; 4], "the checkpoints are removed with the table written");
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_hung_rank_is_found_by_rank_zero_after_the_rank_timeout() {
    let single = single_process("KRRRK");
    let tmp = sub_tables_only(&single, "KRRRK");
    let dir = tmp.path();
    let (job, rx, pid) = start_job(mpirun, dir, 3, &["--rank-timeout", "3s"]);
    // A stopped process neither dies nor answers: only the exchange's timeout can tell.
    assert!(Command::new("kill").args(["-STOP", &pid.to_string()]).status().unwrap().success());
    let err = wait_for_line(job, &rx, "the exchange between the ranks got no answer for", Duration::from_secs(120));
    let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    assert!(err.contains("error: generating KRRRK "), "{err}");
    assert!(err.contains("the exchange between the ranks got no answer for"), "{err}");
    assert!(!dir.join("KRRRK.btb").exists());
}
