//! Lazy-cluster search between threads (the local transport, no MPI): rank 0 answers UCI as
//! `bastion uci` does, every rank searches, `stop` and `quit` reach every rank, mates are
//! found, and a rank that is gone or silent is left out instead of hanging rank 0.

mod local;

use bastion_cluster::search::{serve_root, serve_worker, RootEnd, SearchOptions, Tap, UciSession};
use bastion_cluster::transport::{local_world, LocalTransport};
use bastion_cluster::ClusterError;
use bastion_core::Position;
use local::{join, legal, Input, Lines};
use std::io::BufReader;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};
use std::time::Duration;

fn session(tap: Tap) -> UciSession {
    UciSession::new(tap)
}

/// A job of local ranks: rank 0 reading `input`, the others serving it.
struct Job {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    root: JoinHandle<Result<RootEnd, ClusterError>>,
    workers: Vec<JoinHandle<Result<(), ClusterError>>>,
}

impl Job {
    /// `ranks` ranks; `absent` ranks take no part (`Gone`: never started, `Silent`: started
    /// but never reading or answering).
    fn start(ranks: usize, absent: &[(usize, Absent)], options: SearchOptions) -> (Job, Vec<LocalTransport>) {
        let mut world = local_world(ranks).into_iter();
        let root_transport = world.next().expect("rank 0");
        let mut held = Vec::new();
        let mut workers = Vec::new();
        for (i, transport) in world.enumerate() {
            match absent.iter().find(|(r, _)| *r == i + 1).map(|(_, a)| a) {
                Some(Absent::Gone) => drop(transport),
                Some(Absent::Silent) => held.push(transport),
                None => {
                    let options = options.clone();
                    workers.push(thread::spawn(move || serve_worker(&transport, session, &options)));
                }
            }
        }
        let (input_tx, chunks) = mpsc::channel();
        let (to, output) = mpsc::channel();
        let root = thread::spawn(move || {
            let input = Box::new(BufReader::new(Input::new(chunks)));
            let mut out = Lines::new(to);
            serve_root(&root_transport, session, input, &mut out, &options, &|| false)
        });
        (Job { input: Some(input_tx), output, root, workers }, held)
    }

    fn send(&self, lines: &str) {
        let input = self.input.as_ref().expect("input still open");
        input.send(format!("{lines}\n").into_bytes()).expect("rank 0 reads its input");
    }

    /// The output up to and including the first line that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        local::until(&self.output, prefix)
    }

    /// The `bestmove` line of the search just started, checked to be its only one.
    fn bestmove(&self) -> String {
        let lines = self.until("bestmove");
        lines.last().cloned().expect("a bestmove line")
    }

    /// Ends the job with `quit` (or by closing the input) and returns how rank 0 ended.
    fn end(mut self, quit: bool) -> RootEnd {
        if quit {
            self.send("quit");
        } else {
            self.input = None;
        }
        let end = join(self.root).expect("rank 0 ends without an error");
        for worker in self.workers {
            join(worker).expect("every rank leaves cleanly");
        }
        // Nothing follows the last bestmove.
        assert_eq!(self.output.try_iter().filter(|l| l.starts_with("bestmove")).count(), 0);
        end
    }
}

enum Absent {
    Gone,
    Silent,
}

fn after_e4() -> Position {
    let start = Position::startpos();
    start.play(start.parse_uci("e2e4").expect("e2e4"))
}

fn options() -> SearchOptions {
    SearchOptions { answer_wait: Duration::from_secs(5), ..SearchOptions::default() }
}

#[test]
fn answers_as_bastion_uci_does_and_quit_ends_every_rank() {
    let (job, _) = Job::start(3, &[], options());
    job.send("uci");
    let lines = job.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name Bastion")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("option name Threads")), "{lines:?}");
    job.send("isready");
    assert_eq!(job.until("readyok"), ["readyok"]);
    job.send("setoption name Hash value 8\nposition startpos moves e2e4\ngo depth 6");
    let lines = job.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")), "{lines:?}");
    legal(&after_e4(), &lines[lines.len() - 1]);
    job.send("isready");
    assert_eq!(job.until("readyok"), ["readyok"]);
    assert!(job.end(true).lost.is_empty());
}

#[test]
fn go_perft_is_counted_by_rank_0_and_leaves_the_job_idle() {
    let (job, _) = Job::start(3, &[], options());
    job.send("position startpos\ngo perft 3");
    let lines = job.until("Nodes searched");
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 8902"), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).count(), 20, "{lines:?}");
    // No vote is waited for: the next search is answered as usual.
    job.send("isready\ngo depth 4");
    assert_eq!(job.until("readyok"), ["readyok"]);
    legal(&Position::startpos(), &job.bestmove());
    assert!(job.end(true).lost.is_empty());
}

#[test]
fn mates_in_two_are_found_with_one_and_three_ranks() {
    // The only mates in two: 1.Nf6+ gxf6 2.Bxf7# and 1...Rg1+ 2.Nxg1 Rf1# (the engine's
    // second line is no mate, or a longer one).
    let cases = [
        ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6"),
        ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1"),
    ];
    for ranks in [1, 3] {
        let (job, _) = Job::start(ranks, &[], options());
        for (fen, answer) in cases {
            job.send(&format!("position fen {fen}\ngo depth 10"));
            let lines = job.until("bestmove");
            let pos = Position::from_fen(fen).expect("a FEN");
            assert_eq!(legal(&pos, &lines[lines.len() - 1]), answer, "{ranks} ranks: {lines:?}");
            assert!(lines.iter().any(|l| l.contains(" score mate 2 ")), "{ranks} ranks: {lines:?}");
        }
        assert!(job.end(true).lost.is_empty());
    }
}

#[test]
fn stop_ends_an_infinite_search_on_every_rank_and_go_ends_the_one_before() {
    let (job, _) = Job::start(3, &[], options());
    job.send("position startpos moves e2e4\ngo infinite");
    thread::sleep(Duration::from_millis(200));
    job.send("stop");
    legal(&after_e4(), &job.bestmove());
    job.send("go movetime 200");
    legal(&after_e4(), &job.bestmove());
    // A `go` during a search ends that search first, with its own bestmove.
    job.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    job.send("go depth 4");
    legal(&after_e4(), &job.bestmove());
    legal(&after_e4(), &job.bestmove());
    assert!(job.end(true).lost.is_empty());
}

#[test]
fn end_of_input_lets_a_bounded_search_finish_and_stops_an_infinite_one() {
    let (job, _) = Job::start(2, &[], options());
    job.send("position startpos moves e2e4\ngo depth 5");
    legal(&after_e4(), &job.bestmove());
    job.end(false);
    let (job, _) = Job::start(2, &[], options());
    job.send("position startpos moves e2e4\ngo infinite");
    let mut job = job;
    job.input = None;
    legal(&after_e4(), &job.bestmove());
    job.end(false);
}

#[test]
fn a_rank_that_is_gone_or_silent_is_left_out_and_named() {
    // Heartbeats well inside the timeout, so that the working rank never takes rank 0 for
    // silent while rank 0 waits out the silent rank, and a timeout long enough for a working
    // rank's first message on a loaded machine.
    let options = SearchOptions {
        heartbeat: Duration::from_millis(100),
        rank_timeout: Duration::from_secs(3),
        answer_wait: Duration::from_millis(200),
        ..SearchOptions::default()
    };
    // Rank 1 never reads or answers (a hung process); rank 2 is gone.
    let (job, _held) = Job::start(4, &[(1, Absent::Silent), (2, Absent::Gone)], options);
    job.send("position startpos moves e2e4\ngo depth 5");
    let lines = job.until("bestmove");
    legal(&after_e4(), &lines[lines.len() - 1]);
    assert!(lines.iter().any(|l| l.starts_with("info string rank 2 ") && l.contains("cannot be reached")), "{lines:?}");
    // After the rank timeout rank 0 says that rank 1 is silent, and searches on.
    let silent = |l: &String| l.starts_with("info string rank 1 ") && l.contains("sent nothing");
    if !lines.iter().any(silent) {
        let lines = job.until("info string rank 1 ");
        assert!(lines.iter().any(silent), "{lines:?}");
    }
    job.send("go depth 4");
    legal(&after_e4(), &job.bestmove());
    let end = job.end(true);
    let lost: Vec<usize> = end.lost.iter().map(|(rank, _)| *rank).collect();
    assert_eq!(lost, [1, 2]);
}
