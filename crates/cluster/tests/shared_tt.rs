//! Transposition-table entries shared between the ranks of a cluster search (the local
//! transport, no MPI): entries flow both ways while the ranks search, moves stay legal, `stop`
//! still ends every search, a rank that does not read is sent at most a window of batches,
//! ranks that do not share send none, and a damaged batch is an error naming its sender.

mod local;

use bastion_cluster::search::message::Entries;
use bastion_cluster::search::share::WINDOW;
use bastion_cluster::search::{serve_root, serve_worker, RootEnd, SearchOptions, Tap, UciSession};
use bastion_cluster::transport::{local_world, LocalTransport, Transport};
use bastion_cluster::ClusterError;
use bastion_core::Position;
use bastion_engine::tt::{PackedEntry, TtShare};
use bastion_engine::EngineOptions;
use local::{join, legal, Input, Lines, LIMIT};
use std::io::BufReader;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The share depth of the tests: low, so that even short searches share many entries.
const DEPTH: i32 = 4;

/// What a rank of a test job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Searches and shares its table.
    Sharing,
    /// Searches without sharing.
    Private,
    /// Started but never reads or answers: its transport is handed to the test.
    Silent,
}

/// A job of local ranks: rank 0 reading the test's input, the others serving it.
struct Job {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    root: JoinHandle<Result<RootEnd, ClusterError>>,
    workers: Vec<JoinHandle<Result<(), ClusterError>>>,
    /// Each rank's link to its engine's table, where it shares.
    shares: Vec<Option<Arc<TtShare>>>,
}

/// A session with a small table, sharing through `share` if there is one.
fn session(share: Option<Arc<TtShare>>) -> impl FnOnce(Tap) -> UciSession + Send {
    move |tap| {
        let session = UciSession::with_options(tap, EngineOptions { hash_mb: 16, ..EngineOptions::default() });
        match share {
            Some(share) => session.with_tt_share(share),
            None => session,
        }
    }
}

impl Job {
    /// A job with one rank for each role, rank 0 first (it must search); the silent ranks'
    /// transports come back with it.
    fn start(roles: &[Role], options: SearchOptions) -> (Job, Vec<LocalTransport>) {
        assert_ne!(roles[0], Role::Silent);
        let shares: Vec<Option<Arc<TtShare>>> =
            roles.iter().map(|&role| (role == Role::Sharing).then(|| TtShare::new(DEPTH))).collect();
        let mut world = local_world(roles.len()).into_iter();
        let root_transport = world.next().expect("rank 0");
        let (mut held, mut workers) = (Vec::new(), Vec::new());
        for (rank, transport) in (1..).zip(world) {
            if roles[rank] == Role::Silent {
                held.push(transport);
                continue;
            }
            let (options, session) = (options.clone(), session(shares[rank].clone()));
            workers.push(thread::spawn(move || serve_worker(&transport, session, &options)));
        }
        let (input_tx, chunks) = mpsc::channel();
        let (to, output) = mpsc::channel();
        let root_session = session(shares[0].clone());
        let root = thread::spawn(move || {
            let input = Box::new(BufReader::new(Input::new(chunks)));
            let mut out = Lines::new(to);
            serve_root(&root_transport, root_session, input, &mut out, &options, &|| false)
        });
        (Job { input: Some(input_tx), output, root, workers, shares }, held)
    }

    fn send(&self, lines: &str) {
        let input = self.input.as_ref().expect("input still open");
        input.send(format!("{lines}\n").into_bytes()).expect("rank 0 reads its input");
    }

    /// The output up to and including the first line that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        local::until(&self.output, prefix)
    }

    /// Waits until every sharing rank has stored entries from the others.
    fn until_every_rank_imported(&self) {
        let deadline = Instant::now() + LIMIT;
        while !self.shares.iter().flatten().all(|s| s.imported() > 0) {
            assert!(Instant::now() < deadline, "a rank imported nothing within {LIMIT:?}: {}", self.counts());
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Each rank's exported and imported counts, for messages.
    fn counts(&self) -> String {
        let each = self.shares.iter().enumerate().filter_map(|(rank, share)| {
            share.as_ref().map(|s| format!("rank {rank}: {} sent, {} stored", s.taken(), s.imported()))
        });
        each.collect::<Vec<_>>().join("; ")
    }

    /// Ends the job with `quit` and returns how rank 0 ended.
    fn end(mut self) -> RootEnd {
        self.send("quit");
        self.input = None;
        let end = join(self.root).expect("rank 0 ends without an error");
        for worker in self.workers {
            join(worker).expect("every rank leaves cleanly");
        }
        end
    }
}

fn options() -> SearchOptions {
    SearchOptions { answer_wait: Duration::from_secs(5), ..SearchOptions::default() }
}

/// A middlegame with many moves for either side.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 0 8";

#[test]
fn batches_round_trip_and_are_told_from_json_messages() {
    let entries: Vec<PackedEntry> = (0..Entries::MAX as u64)
        .map(|i| PackedEntry { key: i.wrapping_mul(0x9E37_79B9_7F4A_7C15), data: !i })
        .collect();
    let batch = Entries { received: 17, entries };
    let bytes = batch.encode();
    assert!(bytes.len() < 4096, "a full batch is {} bytes", bytes.len());
    assert_eq!(Entries::decode(&bytes), Some(Ok(batch)));
    let ack = Entries { received: 3, entries: Vec::new() };
    assert_eq!(Entries::decode(&ack.encode()), Some(Ok(ack)));
    // JSON messages are not batches; cut or overlong batches are damaged ones.
    assert_eq!(Entries::decode(br#""Heartbeat""#), None);
    assert_eq!(Entries::decode(br#"{"Stop":{"id":1}}"#), None);
    assert_eq!(Entries::decode(b""), None);
    assert!(matches!(Entries::decode(&bytes[..bytes.len() - 1]), Some(Err(_))));
    assert!(matches!(Entries::decode(&[0, 1, 2]), Some(Err(_))));
    let mut long = bytes.clone();
    long.extend_from_slice(&[0; 16]);
    assert!(matches!(Entries::decode(&long), Some(Err(_))));
}

#[test]
fn entries_flow_between_every_rank_and_stop_still_ends_the_search() {
    let (job, _) = Job::start(&[Role::Sharing; 3], options());
    let pos = Position::from_fen(MIDDLEGAME).expect("a FEN");
    job.send(&format!("position fen {MIDDLEGAME}\ngo infinite"));
    job.until_every_rank_imported();
    job.send("stop");
    legal(&pos, job.until("bestmove").last().expect("a line"));
    // Bounded searches too, one after another, with the tables sharing throughout.
    job.send("go depth 9");
    legal(&pos, job.until("bestmove").last().expect("a line"));
    job.send("go movetime 300");
    legal(&pos, job.until("bestmove").last().expect("a line"));
    job.send("isready");
    assert_eq!(job.until("readyok"), ["readyok"]);
    for share in job.shares.iter().flatten() {
        assert!(share.taken() > 0 && share.imported() > 0, "{}", job.counts());
    }
    assert!(job.end().lost.is_empty());
}

#[test]
fn mates_are_still_found_with_shared_tables() {
    // The only mates in two: 1.Nf6+ gxf6 2.Bxf7# and 1...Rg1+ 2.Nxg1 Rf1#.
    let cases = [
        ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6"),
        ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1"),
    ];
    let (job, _) = Job::start(&[Role::Sharing; 3], options());
    for (fen, answer) in cases {
        job.send(&format!("position fen {fen}\ngo depth 10"));
        let lines = job.until("bestmove");
        let pos = Position::from_fen(fen).expect("a FEN");
        assert_eq!(legal(&pos, &lines[lines.len() - 1]), answer, "{lines:?}");
        assert!(lines.iter().any(|l| l.contains(" score mate 2 ")), "{lines:?}");
    }
    assert!(job.end().lost.is_empty());
}

#[test]
fn a_rank_that_does_not_read_is_sent_at_most_a_window_and_private_ranks_send_nothing() {
    let options = SearchOptions {
        heartbeat: Duration::from_millis(100),
        rank_timeout: Duration::from_secs(5),
        answer_wait: Duration::from_millis(200),
        ..SearchOptions::default()
    };
    // Rank 2 shares and keeps sending; rank 1 does not share; rank 3 never reads.
    let (job, held) = Job::start(&[Role::Sharing, Role::Private, Role::Sharing, Role::Silent], options);
    let pos = Position::from_fen(MIDDLEGAME).expect("a FEN");
    job.send(&format!("position fen {MIDDLEGAME}\ngo infinite"));
    // Long enough for the sharing ranks to send far more than a window.
    let deadline = Instant::now() + LIMIT;
    while job.shares.iter().flatten().any(|s| s.taken() < 10 * WINDOW * Entries::MAX as u64) {
        assert!(Instant::now() < deadline, "too few entries collected within {LIMIT:?}: {}", job.counts());
        thread::sleep(Duration::from_millis(20));
    }
    job.send("stop");
    legal(&pos, job.until("bestmove").last().expect("a line"));
    let silent = &held[0];
    let mut batches = [0u64; 4];
    while let Some((from, bytes)) = silent.try_receive() {
        if let Some(batch) = Entries::decode(&bytes) {
            assert!(!batch.expect("an undamaged batch").entries.is_empty(), "nothing to acknowledge");
            batches[from] += 1;
        }
    }
    assert_eq!(batches[1], 0, "a rank that does not share sends no batches");
    for rank in [0, 2] {
        assert!((1..=WINDOW).contains(&batches[rank]), "rank {rank} sent {} batches: {}", batches[rank], job.counts());
    }
    // The sharing ranks imported each other's entries, and the private rank's search went on.
    assert!(job.shares.iter().flatten().all(|s| s.imported() > 0), "{}", job.counts());
    drop(held);
    let end = job.end();
    assert_eq!(end.lost.iter().map(|(rank, _)| *rank).collect::<Vec<_>>(), [3]);
}

#[test]
fn a_damaged_batch_ends_the_job_naming_its_sender() {
    let (job, held) = Job::start(&[Role::Sharing, Role::Silent], options());
    held[0].send(0, &[0, 1, 2]).expect("rank 0 is there");
    let Job { input, root, .. } = job;
    let err = join(root).expect_err("rank 0 ends with an error");
    drop(input);
    assert!(matches!(err, ClusterError::Protocol { rank: 1, .. }), "{err}");
    assert!(err.to_string().contains("damaged batch"), "{err}");
}
