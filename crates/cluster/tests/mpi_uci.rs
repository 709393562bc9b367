//! `bastion cluster uci` under mpirun, driven as a GUI drives it: at 2 and 4 ranks rank 0
//! answers UCI with legal moves, every rank votes, mates in two are found, `stop` and `quit`
//! reach every rank, and nothing but UCI reaches standard output; table entries flow between
//! the ranks unless `--share-depth 0`; a rank killed mid-search ends the job with a message
//! from rank 0, and a hung rank is left out, never a hang.
//!
//! These need Open MPI's `mpirun` and a `bastion` built with `--features mpi`, whose path is in
//! `BASTION_MPI_BIN`; `scripts/ci-mpi.sh` provides both and runs them with `-- --ignored`.
#![cfg(feature = "mpi")]

mod common;

use common::{mpirun, mpirun_for_a_killed_rank};

use bastion_core::Position;
use std::io::{BufRead, BufReader, Read, Write};

use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Generous: the tests check what happens, never how fast (four ranks share two cores).
const LIMIT: Duration = Duration::from_secs(120);

/// A GUI talking to `mpirun -np N bastion cluster uci`.
struct Gui {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Gui {
    /// `mpirun -np ranks bastion cluster uci --log-votes options…`.
    fn start(ranks: usize, options: &[&str]) -> Gui {
        Gui::start_with(mpirun, ranks, options)
    }

    /// [`Gui::start`] with `launch` ([`mpirun`] or [`mpirun_for_a_killed_rank`]).
    fn start_with(launch: fn(usize, &[&str]) -> Command, ranks: usize, options: &[&str]) -> Gui {
        let mut child = launch(ranks, &["cluster", "uci", "--log-votes"])
            .args(options)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mpirun starts (is Open MPI installed?)");
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout");
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().expect("stderr");
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    return;
                }
                sink.lock().expect("stderr text").push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let stdin = child.stdin.take();
        Gui { child, stdin, lines, stderr }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{text}").expect("mpirun reads its input");
        stdin.flush().expect("flush");
    }

    fn stderr(&self) -> String {
        self.stderr.lock().expect("stderr text").clone()
    }

    /// Standard output up to and including the first line starting with `prefix`; every
    /// line is checked to be UCI (the other ranks print nothing there).
    fn until(&self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + LIMIT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = self.lines.recv_timeout(left) else {
                panic!("no {prefix:?} within {LIMIT:?}; got {lines:?}; stderr: {}", self.stderr());
            };
            let uci = ["id ", "option ", "uciok", "readyok", "info ", "bestmove "];
            assert!(uci.iter().any(|p| line.starts_with(p)), "not UCI on standard output: {line:?}");
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Waits for mpirun to end; fails (after killing it) instead of hanging.
    fn wait(mut self) -> (std::process::ExitStatus, String) {
        let deadline = Instant::now() + LIMIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("mpirun's status") {
                thread::sleep(Duration::from_millis(200));
                return (status, self.stderr());
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the job did not end within {LIMIT:?}: a hang; stderr: {}", self.stderr());
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Gui {
    /// The pid of `rank`, once rank 0 has printed where it runs.
    fn pid_of(&self, rank: usize) -> u32 {
        let deadline = Instant::now() + LIMIT;
        loop {
            if let Some(pid) = pid_of(&self.stderr(), rank) {
                return pid;
            }
            assert!(Instant::now() < deadline, "rank {rank} did not say where it runs: {}", self.stderr());
            thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The move of the last line (a `bestmove` line), checked to be legal in `pos`.
fn legal(pos: &Position, lines: &[String]) -> String {
    let line = lines.last().expect("a bestmove line");
    let mv = line.split_whitespace().nth(1).unwrap_or_else(|| panic!("no move in {line:?}"));
    let parsed = pos.parse_uci(mv).unwrap_or_else(|_| panic!("{mv} is no move in {}", pos.fen()));
    assert!(pos.is_legal(parsed), "{mv} is not legal in {}", pos.fen());
    mv.to_string()
}

/// The pid of `rank` from rank 0's start-up line `rank R of N: pid P on HOST`.
fn pid_of(stderr: &str, rank: usize) -> Option<u32> {
    let line = stderr.lines().find(|l| l.starts_with(&format!("rank {rank} of ")))?;
    line.split_whitespace().skip_while(|w| *w != "pid").nth(1)?.parse().ok()
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn cluster_uci_at_two_and_four_ranks_answers_as_bastion_uci_does() {
    let start = Position::startpos();
    let after_e4 = start.play(start.parse_uci("e2e4").expect("e2e4"));
    for ranks in [2, 4] {
        // Every rank's answer is waited for, so that every vote counts every rank.
        let mut gui = Gui::start(ranks, &["--answer-wait", "20s"]);
        gui.send("uci");
        let lines = gui.until("uciok");
        assert!(lines.iter().any(|l| l.starts_with("option name Threads")), "{lines:?}");
        gui.send("setoption name Hash value 8");
        gui.send("isready");
        assert_eq!(gui.until("readyok"), ["readyok"]);
        gui.send("position startpos moves e2e4");
        gui.send("go depth 8");
        let lines = gui.until("bestmove");
        assert!(lines.iter().any(|l| l.starts_with("info depth 8 ")), "{lines:?}");
        legal(&after_e4, &lines);
        gui.send("go movetime 300");
        legal(&after_e4, &gui.until("bestmove"));
        gui.send("go infinite");
        thread::sleep(Duration::from_millis(300));
        gui.send("stop");
        legal(&after_e4, &gui.until("bestmove"));
        // Mates in two with one solution each (see tests/search.rs).
        for (fen, answer) in [
            ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6"),
            ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1"),
        ] {
            gui.send(&format!("position fen {fen}"));
            gui.send("go depth 10");
            let pos = Position::from_fen(fen).expect("a FEN");
            assert_eq!(legal(&pos, &gui.until("bestmove")), answer, "{ranks} ranks");
        }
        gui.send("isready");
        assert_eq!(gui.until("readyok"), ["readyok"]);
        gui.send("quit");
        let (status, stderr) = gui.wait();
        assert!(status.success(), "{ranks} ranks: quit ends every rank cleanly: {status}; stderr: {stderr}");
        for rank in 1..ranks {
            assert!(pid_of(&stderr, rank).is_some(), "rank {rank} did not start: {stderr}");
        }
        // Every search was answered by every rank.
        let votes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("vote ")).collect();
        assert_eq!(votes.len(), 5, "{stderr}");
        for vote in votes {
            assert!(vote.contains(&format!(": {ranks} of {ranks} ranks: ")), "{vote}");
        }
    }
}

/// How many table entries rank 0 stored from other ranks, from a vote line of `--log-votes`
/// (`… (rank 0's table so far: N entries sent, M stored from other ranks)`); `None` when the
/// line has no such count (sharing off).
fn stored_from_others(vote: &str) -> Option<u64> {
    let (_, rest) = vote.split_once(" entries sent, ")?;
    rest.split_whitespace().next()?.parse().ok()
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn table_entries_flow_between_ranks_unless_share_depth_is_zero() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8";
    let pos = Position::from_fen(fen).expect("a FEN");
    for (ranks, depth) in [(2, "6"), (4, "6"), (2, "0")] {
        let mut gui = Gui::start(ranks, &["--share-depth", depth, "--answer-wait", "20s"]);
        gui.send(&format!("position fen {fen}"));
        gui.send("go depth 14");
        legal(&pos, &gui.until("bestmove"));
        gui.send("go infinite");
        thread::sleep(Duration::from_millis(500));
        gui.send("stop");
        legal(&pos, &gui.until("bestmove"));
        gui.send("quit");
        let (status, stderr) = gui.wait();
        assert!(status.success(), "{ranks} ranks: quit ends every rank cleanly: {status}; stderr: {stderr}");
        let votes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("vote ")).collect();
        assert_eq!(votes.len(), 2, "{stderr}");
        let stored = stored_from_others(votes[1]);
        if depth == "0" {
            assert_eq!(stored, None, "{}", votes[1]);
        } else {
            assert!(stored.is_some_and(|n| n > 0), "{ranks} ranks: rank 0 stored nothing: {}", votes[1]);
        }
    }
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_rank_killed_mid_search_ends_the_job_with_a_message() {
    let mut gui = Gui::start_with(mpirun_for_a_killed_rank, 2, &[]);
    gui.send("isready");
    gui.until("readyok");
    gui.send("position startpos");
    gui.send("go infinite");
    let pid = gui.pid_of(1);
    thread::sleep(Duration::from_millis(300));
    let killed = Command::new("kill").arg("-9").arg(pid.to_string()).status().expect("kill");
    assert!(killed.success());
    let (status, stderr) = gui.wait();
    assert!(!status.success(), "{stderr}");
    assert!(stderr.contains("error: stopped from outside"), "{stderr}");
}

#[test]
#[ignore = "needs mpirun and BASTION_MPI_BIN (a bastion built with --features mpi); run by scripts/ci-mpi.sh"]
fn a_hung_rank_is_left_out_and_named_and_the_job_ends() {
    let start = Position::startpos();
    // Long enough for every rank to start on a loaded machine.
    let mut gui = Gui::start(3, &["--rank-timeout", "5s", "--answer-wait", "200ms"]);
    let pid = gui.pid_of(2);
    let signal = |name: &str| Command::new("kill").arg(format!("-{name}")).arg(pid.to_string()).status();
    assert!(signal("STOP").expect("kill -STOP").success());
    gui.send("position startpos");
    gui.send("go depth 6");
    legal(&start, &gui.until("bestmove"));
    // Rank 0 names the hung rank and searches on without it.
    let lines = gui.until("info string rank 2 ");
    assert!(lines[lines.len() - 1].contains(&format!("(pid {pid} on ")), "{lines:?}");
    assert!(lines[lines.len() - 1].contains("sent nothing"), "{lines:?}");
    gui.send("go depth 5");
    legal(&start, &gui.until("bestmove"));
    gui.send("quit");
    // Rank 0 now ends the job, naming the rank; mpirun ends the stopped one.
    let deadline = Instant::now() + Duration::from_secs(60);
    while gui.child.try_wait().expect("mpirun's status").is_none() && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
    }
    let ended = gui.child.try_wait().expect("mpirun's status").is_some();
    let _ = signal("KILL");
    let _ = gui.child.kill();
    let (status, stderr) = gui.wait();
    assert!(ended, "the job did not end within 60 s of quit: a hang\n{stderr}");
    assert!(!status.success(), "{stderr}");
    assert!(stderr.contains("error: rank 2 did not answer; ending the job"), "{stderr}");
}
