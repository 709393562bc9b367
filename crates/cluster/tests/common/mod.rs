//! What the MPI tests share: the `bastion` under test and an `mpirun` that starts it (and what
//! the local-transport tests of distributed runs share with them).

// Each test file uses a part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// The `bastion` built with `--features mpi` that `BASTION_MPI_BIN` names.
pub fn bastion() -> PathBuf {
    let path = std::env::var_os("BASTION_MPI_BIN")
        .map(PathBuf::from)
        .expect("BASTION_MPI_BIN must name a bastion built with --features mpi (scripts/ci-mpi.sh sets it)");
    assert!(path.is_file(), "BASTION_MPI_BIN={} is not a file", path.display());
    path
}

/// `mpirun -np N` (oversubscribed: the CI machine may have fewer cores) running `bastion args`.
pub fn mpirun(ranks: usize, args: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(bastion())
        .args(args)
        // Containers often run as root, which mpirun refuses without these.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    c
}

/// [`mpirun`] for a job in which the test kills a rank from outside. When a rank dies, mpirun
/// sends the others SIGTERM and SIGKILL one second later by default, and rank 0 says what was
/// lost in that second; on a busy two-core machine its message missed the second in about one
/// run in five (none in 20 with five seconds). Only these jobs get the longer wait: mpirun
/// sleeps it out in full (twice) whenever it ends a job, also one that rank 0 ends itself after
/// saying why, which is how every other failing job here ends.
pub fn mpirun_for_a_killed_rank(ranks: usize, args: &[&str]) -> Command {
    let mut c = mpirun(ranks, args);
    c.env("OMPI_MCA_odls_base_sigkill_timeout", "5");
    c
}

/// Runs `c`, failing the test (instead of hanging it) after `limit`.
// Each test file compiles this module on its own; not every one runs a job to its end.
pub fn output_within(mut c: Command, limit: Duration) -> Output {
    let child =
        c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the command starts (is Open MPI installed?)");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(limit) {
        Ok(out) => out.expect("the command's output"),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("the job did not end within {limit:?}: a hang");
        }
    }
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Starts `c` with its standard error read line by line onto the returned channel (standard
/// output piped, unread), for tests that watch a job while it runs.
pub fn spawn_watched(mut c: Command) -> (Child, mpsc::Receiver<String>) {
    let mut job = c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("mpirun starts");
    let (tx, rx) = mpsc::channel();
    let stderr = job.stderr.take().expect("piped stderr");
    thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    (job, rx)
}

/// A PGN text without what depends on the clock: the Date tag and the move comments (thinking
/// times).
pub fn pgn_without_times(pgn: &str) -> String {
    let mut out = String::new();
    let mut in_comment = false;
    for line in pgn.lines().filter(|l| !l.starts_with("[Date ")) {
        for c in line.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                _ if !in_comment => out.push(c),
                _ => {}
            }
        }
        out.push('\n');
    }
    out
}
