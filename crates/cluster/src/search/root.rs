//! Rank 0: speaks UCI with the GUI, forwards the commands every rank needs, and picks each
//! search's move by the ranks' vote.

use super::message::{Entries, ToRank, ToRoot};
use super::share::Exchange;
use super::tap::{Feed, Tap};
use super::vote::{self, Vote};
use super::{SearchOptions, UciSession, POLL};
use crate::error::{ClusterError, Peer};
use crate::protocol::{decode, encode};
use crate::transport::Transport;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a cluster search session ended (the GUI sent `quit` or closed its input).
#[derive(Debug, Default)]
pub struct RootEnd {
    /// The ranks left out for silence, with where they run: they cannot take part in an
    /// orderly end of the job, so the caller ends it (`MpiWorld::abort`) instead of waiting for them.
    pub lost: Vec<(usize, Option<Peer>)>,
}

/// Another rank, as rank 0 sees it.
struct Rank {
    peer: Option<Peer>,
    heard: Instant,
    lost: bool,
    /// It has acted on `quit`.
    left: bool,
}

/// The search under way.
struct Search {
    id: u64,
    /// Searches only until `stop` (`infinite`, `ponder`, or no limit): stopped at end of input.
    unbounded: bool,
    /// `stop` has been sent for it.
    stopped: bool,
    /// Rank 0's last usable report.
    info: Option<String>,
    /// Rank 0's session answered from its opening book: its move is played as it is.
    book: bool,
    /// Rank 0's `bestmove` line, held back until the vote.
    own: Option<String>,
    /// When rank 0 stops waiting for the other ranks.
    deadline: Instant,
    /// The other ranks' answers, by rank.
    answers: Vec<Option<Vote>>,
}

struct Root<'a> {
    transport: &'a dyn Transport,
    out: &'a mut dyn Write,
    session: UciSession,
    /// The sharing of table entries, when the session shares its table.
    exchange: Option<Exchange>,
    options: &'a SearchOptions,
    ranks: Vec<Rank>,
    search: Option<Search>,
    next_id: u64,
    /// Input not yet acted on: it waits while a vote is open, so that the GUI sees the
    /// `bestmove` before anything its later commands produce.
    deferred: VecDeque<String>,
    input_ended: bool,
    /// When `quit` was sent: rank 0 then waits for every rank to leave.
    quit: Option<Instant>,
}

/// Runs rank 0 of a cluster search: reads UCI commands from `input`, writes the GUI's output
/// to `out`, and drives the other ranks (each running [`super::serve_worker`]) until `quit` or
/// the end of input. `session` builds rank 0's engine session around its [`Tap`]; `stopped`
/// is polled, and ends the session with [`ClusterError::Interrupted`] when it turns true.
pub fn serve_root(
    transport: &dyn Transport,
    session: impl FnOnce(Tap) -> UciSession,
    input: Box<dyn BufRead + Send>,
    out: &mut dyn Write,
    options: &SearchOptions,
    stopped: &dyn Fn() -> bool,
) -> Result<RootEnd, ClusterError> {
    let (tx, events) = mpsc::channel();
    spawn_reader(input, tx.clone());
    let now = Instant::now();
    let session = session(Tap::new(tx));
    let exchange = session.tt_share().map(|share| Exchange::new(Arc::clone(share), 0, transport.size()));
    let mut root = Root {
        transport,
        out,
        session,
        exchange,
        options,
        ranks: (0..transport.size()).map(|_| Rank { peer: None, heard: now, lost: false, left: false }).collect(),
        search: None,
        next_id: 0,
        deferred: VecDeque::new(),
        input_ended: false,
        quit: None,
    };
    root.run(&events, stopped)
}

/// Reads the GUI's lines on a thread of its own, so that the main thread (the only one that
/// calls MPI) never blocks on input.
fn spawn_reader(mut input: Box<dyn BufRead + Send>, to: Sender<Feed>) {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if to.send(Feed::Input(String::from_utf8_lossy(&buf).trim().to_string())).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = to.send(Feed::InputEnd);
    });
}

/// Whether a `go` line searches until `stop`: `infinite`, `ponder`, or no limit at all.
fn unbounded(go: &str) -> bool {
    let words: Vec<&str> = go.split_whitespace().collect();
    let limited = ["wtime", "btime", "depth", "nodes", "mate", "movetime"];
    words.iter().any(|w| *w == "infinite" || *w == "ponder") || !words.iter().any(|w| limited.contains(w))
}

impl Root<'_> {
    fn run(&mut self, events: &Receiver<Feed>, stopped: &dyn Fn() -> bool) -> Result<RootEnd, ClusterError> {
        let mut said = Instant::now();
        loop {
            if stopped() {
                return Err(ClusterError::Interrupted);
            }
            if let Ok(event) = events.recv_timeout(POLL) {
                self.on_event(event);
                while let Ok(event) = events.try_recv() {
                    self.on_event(event);
                }
            }
            self.receive()?;
            self.share();
            self.resolve_if_answered();
            self.run_deferred();
            if let Some(sent) = self.quit {
                if self.all_left(sent) {
                    let lost = self.ranks.iter().enumerate().filter(|(_, r)| r.lost);
                    return Ok(RootEnd { lost: lost.map(|(rank, r)| (rank, r.peer.clone())).collect() });
                }
            }
            if said.elapsed() >= self.options.heartbeat {
                self.broadcast(&ToRank::Heartbeat);
                said = Instant::now();
            }
            self.leave_out_silent();
        }
    }

    fn on_event(&mut self, event: Feed) {
        match event {
            Feed::Input(line) if !line.is_empty() => self.deferred.push_back(line),
            Feed::Input(_) => {}
            Feed::InputEnd => self.input_ended = true,
            Feed::Line(line) => self.on_output(line),
        }
    }

    /// A line from rank 0's session: to the GUI, except the `bestmove` of a search, which
    /// waits for the vote.
    fn on_output(&mut self, line: String) {
        let Some(search) = self.search.as_mut().filter(|s| s.own.is_none()) else {
            return self.say(&line);
        };
        if line.starts_with("bestmove") {
            search.own = Some(line);
            search.deadline = Instant::now() + self.options.answer_wait;
            let (id, book) = (search.id, search.book);
            // Rank 0's limits end the search on every rank; the answers come at once.
            let waiting: Vec<usize> =
                (1..self.ranks.len()).filter(|&r| !self.ranks[r].lost && search.answers[r].is_none()).collect();
            for rank in waiting {
                self.send(rank, &ToRank::Stop { id });
            }
            if book {
                self.resolve();
            }
            return;
        }
        if line == "info string book move" {
            search.book = true;
        } else if vote::report(&line).is_some() {
            search.info = Some(line.clone());
        }
        self.say(&line);
    }

    /// Acts on the waiting input in order, as far as the open search allows.
    fn run_deferred(&mut self) {
        while let Some(line) = self.deferred.front() {
            if self.search.as_ref().is_some_and(|s| s.own.is_some()) {
                return;
            }
            let command = line.split_whitespace().next().unwrap_or("");
            // These end a running search first, as `bastion uci` does; the command waits for
            // its vote.
            if self.search.is_some() && matches!(command, "go" | "ucinewgame" | "quit") {
                self.stop_search();
                return;
            }
            let line = self.deferred.pop_front().unwrap_or_default();
            self.command(&line);
            if self.quit.is_some() {
                return;
            }
        }
        if self.input_ended && self.quit.is_none() {
            match &self.search {
                Some(s) if s.unbounded && !s.stopped => self.stop_search(),
                Some(_) => {}
                None => self.command("quit"),
            }
        }
    }

    fn command(&mut self, line: &str) {
        let command = line.split_whitespace().next().unwrap_or("");
        match command {
            // Perft is no search: rank 0 counts and prints it, and no vote waits for a move.
            "go" if line.split_whitespace().nth(1) == Some("perft") => {
                self.session.handle(line);
            }
            "go" => {
                self.next_id += 1;
                let id = self.next_id;
                self.search = Some(Search {
                    id,
                    unbounded: unbounded(line),
                    stopped: false,
                    info: None,
                    book: false,
                    own: None,
                    deadline: Instant::now(),
                    answers: vec![None; self.ranks.len()],
                });
                self.broadcast(&ToRank::Go { id, line: line.to_string() });
                self.session.handle(line);
            }
            "stop" if self.search.is_some() => self.stop_search(),
            "position" | "setoption" | "ucinewgame" | "ponderhit" => {
                self.broadcast(&ToRank::Command(line.to_string()));
                self.session.handle(line);
            }
            "quit" => {
                self.broadcast(&ToRank::Quit);
                self.session.handle(line);
                self.quit = Some(Instant::now());
            }
            _ => {
                self.session.handle(line);
            }
        }
    }

    /// `stop` to every rank at once; rank 0's session answers at once.
    fn stop_search(&mut self) {
        let Some(search) = self.search.as_mut() else { return };
        if search.stopped {
            return;
        }
        search.stopped = true;
        let id = search.id;
        self.broadcast(&ToRank::Stop { id });
        self.session.handle("stop");
    }

    /// Whether rank 0's own search is running (its `bestmove` has not come).
    fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.own.is_none())
    }

    /// Sends the table entries collected and the acknowledgements due, to the ranks not
    /// left out.
    fn share(&mut self) {
        let searching = self.searching();
        let ranks = &self.ranks;
        if let Some(exchange) = &mut self.exchange {
            exchange.turn(self.transport, searching, &|r| !ranks[r].lost && !ranks[r].left);
        }
    }

    /// The other ranks' messages.
    fn receive(&mut self) -> Result<(), ClusterError> {
        let size = self.ranks.len();
        let searching = self.searching();
        while let Some((from, bytes)) = self.transport.try_receive() {
            let Some(rank) = self.ranks.get_mut(from) else { continue };
            rank.heard = Instant::now();
            if let Some(batch) = Entries::decode(&bytes) {
                let batch = batch.map_err(|message| ClusterError::Protocol { rank: from, message })?;
                // A rank left out may have missed commands: its entries may be of another game.
                if let Some(exchange) = self.exchange.as_mut().filter(|_| !rank.lost) {
                    exchange.receive(from, &batch, searching);
                }
                continue;
            }
            match decode::<ToRoot>(&bytes).map_err(|message| ClusterError::Protocol { rank: from, message })? {
                ToRoot::Hello { host, pid } => {
                    let peer = Peer { host, pid };
                    eprintln!("rank {from} of {size}: {peer}");
                    rank.peer = Some(peer);
                }
                ToRoot::Heartbeat => {}
                ToRoot::Bye => rank.left = true,
                // A rank left out may have missed commands: its answers are not counted.
                ToRoot::Answer { .. } if rank.lost => {}
                ToRoot::Answer { id, info, bestmove } => {
                    if let Some(search) = self.search.as_mut().filter(|s| s.id == id) {
                        search.answers[from] = Vote::new(from, info.as_deref(), &bestmove);
                    }
                }
            }
        }
        Ok(())
    }

    /// Prints the vote's move once rank 0 has answered and every other rank has too, or the
    /// wait is over.
    fn resolve_if_answered(&mut self) {
        let Some(search) = self.search.as_ref().filter(|s| s.own.is_some()) else { return };
        let all = (1..self.ranks.len()).all(|r| self.ranks[r].lost || search.answers[r].is_some());
        if all || Instant::now() >= search.deadline {
            self.resolve();
        }
    }

    fn resolve(&mut self) {
        let Some(search) = self.search.take() else { return };
        let own = search.own.as_deref().unwrap_or("bestmove 0000");
        let Some(mine) = Vote::new(0, search.info.as_deref(), own) else { return self.say(own) };
        let mut votes = vec![mine.clone()];
        if !search.book {
            votes.extend(search.answers.into_iter().flatten());
        }
        let winner = vote::pick(&votes).cloned().unwrap_or_else(|| mine.clone());
        if self.options.log_votes {
            let each: Vec<String> = votes
                .iter()
                .map(|v| {
                    let score = v.score.map_or_else(|| "none".to_string(), |s| s.to_uci());
                    format!("rank {} {} depth {} {score}", v.rank, v.best, v.depth)
                })
                .collect();
            let shared = self.exchange.as_ref().map_or_else(String::new, |e| {
                let (sent, stored) = e.totals();
                format!(" (rank 0's table so far: {sent} entries sent, {stored} stored from other ranks)")
            });
            eprintln!(
                "vote {}: {} of {} ranks: {}; plays {}{shared}",
                search.id,
                votes.len(),
                self.ranks.len(),
                each.join(", "),
                winner.best
            );
        }
        // Another rank's move is shown with the line behind it, as Stockfish shows its best
        // thread's line.
        if winner.best != mine.best {
            if let Some(info) = &winner.info {
                self.say(info);
            }
        }
        self.say(&winner.bestmove);
    }

    /// Whether every rank has acted on `quit` (sent at `sent`) or is left out. The wait lets
    /// a rank that died show itself before the job ends as if all were well: mpirun then
    /// ends rank 0 with SIGTERM, which [`serve_root`] reports. A rank that does not leave
    /// within the rank timeout is left out.
    fn all_left(&mut self, sent: Instant) -> bool {
        let staying: Vec<usize> =
            (1..self.ranks.len()).filter(|&r| !self.ranks[r].lost && !self.ranks[r].left).collect();
        if staying.is_empty() {
            return true;
        }
        if sent.elapsed() <= self.options.rank_timeout {
            return false;
        }
        for rank in staying {
            self.lose(rank, "did not act on quit");
        }
        true
    }

    fn leave_out_silent(&mut self) {
        let timeout = self.options.rank_timeout;
        let silent: Vec<(usize, Duration)> = (1..self.ranks.len())
            .filter(|&r| !self.ranks[r].lost && !self.ranks[r].left)
            .map(|r| (r, self.ranks[r].heard.elapsed()))
            .filter(|(_, waited)| *waited > timeout)
            .collect();
        for (rank, waited) in silent {
            self.lose(rank, &format!("sent nothing for {:.0} s", waited.as_secs_f64()));
        }
    }

    fn lose(&mut self, rank: usize, why: &str) {
        let r = &mut self.ranks[rank];
        r.lost = true;
        let peer = r.peer.as_ref().map_or_else(|| "not yet started".to_string(), Peer::to_string);
        let text = format!("rank {rank} ({peer}) {why}: it has died or hangs; searching on without it");
        eprintln!("warning: {text}");
        self.say(&format!("info string {text}"));
    }

    fn broadcast(&mut self, message: &ToRank) {
        for rank in 1..self.ranks.len() {
            if !self.ranks[rank].lost && !self.ranks[rank].left {
                self.send(rank, message);
            }
        }
    }

    fn send(&mut self, rank: usize, message: &ToRank) {
        if let Err(e) = self.transport.send(rank, &encode(message)) {
            self.lose(rank, &format!("cannot be reached ({e})"));
        }
    }

    fn say(&mut self, line: &str) {
        // A closed output means the GUI has gone; `quit` or the end of input follows.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }
}
