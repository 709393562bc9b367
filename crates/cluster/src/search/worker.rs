//! Every rank but 0: runs rank 0's commands on its own session and answers each search.

use super::message::{Entries, ToRank, ToRoot};
use super::share::Exchange;
use super::tap::{Feed, Tap};
use super::{vote, SearchOptions, UciSession, POLL};
use crate::error::ClusterError;
use crate::protocol::{decode, encode};
use crate::transport::Transport;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Instant;

/// The search this rank is on and what it has reported so far.
struct Current {
    id: u64,
    info: Option<String>,
    answered: bool,
}

/// Serves rank 0 until it says `quit`: applies its commands to a session made by `session`,
/// and answers every search with the session's `bestmove` and last report. When the session
/// shares its table ([`UciSession::tt_share`]), entries go to and come from every other rank
/// while it searches ([`super::share`]). Returns an error when rank 0 stays silent for longer
/// than [`SearchOptions::rank_timeout`] or a message cannot be sent or read.
pub fn serve_worker(
    transport: &dyn Transport,
    session: impl FnOnce(Tap) -> UciSession,
    options: &SearchOptions,
) -> Result<(), ClusterError> {
    let (tx, output) = mpsc::channel();
    let mut session = session(Tap::new(tx));
    let mut exchange =
        session.tt_share().map(|share| Exchange::new(Arc::clone(share), transport.rank(), transport.size()));
    let send = |message: &ToRoot| {
        transport.send(0, &encode(message)).map_err(|message| ClusterError::Protocol { rank: 0, message })
    };
    send(&ToRoot::Hello { host: transport.host(), pid: std::process::id() })?;
    let mut current = Current { id: 0, info: None, answered: true };
    let (mut heard, mut said) = (Instant::now(), Instant::now());
    loop {
        answer(&output, &mut current, &send, true)?;
        while let Some((from, bytes)) = transport.try_receive() {
            if from == 0 {
                heard = Instant::now();
            }
            if let Some(batch) = Entries::decode(&bytes) {
                let batch = batch.map_err(|message| ClusterError::Protocol { rank: from, message })?;
                if let Some(exchange) = &mut exchange {
                    exchange.receive(from, &batch, !current.answered);
                }
                continue;
            }
            if from != 0 {
                continue;
            }
            let message: ToRank = decode(&bytes).map_err(|message| ClusterError::Protocol { rank: 0, message })?;
            match message {
                ToRank::Command(line) => {
                    session.handle(&line);
                }
                ToRank::Go { id, line } => {
                    // A search still running answers first (as `stop` makes it), under its own id.
                    if !current.answered {
                        session.handle("stop");
                        answer(&output, &mut current, &send, false)?;
                    }
                    current = Current { id, info: None, answered: false };
                    session.handle(&line);
                }
                ToRank::Stop { id } if id == current.id && !current.answered => {
                    session.handle("stop");
                }
                ToRank::Stop { .. } | ToRank::Heartbeat => {}
                ToRank::Quit => {
                    session.handle("quit");
                    answer(&output, &mut current, &send, false)?;
                    send(&ToRoot::Bye)?;
                    return Ok(());
                }
            }
        }
        if let Some(exchange) = &mut exchange {
            exchange.turn(transport, !current.answered, &|_| true);
        }
        if said.elapsed() >= options.heartbeat {
            send(&ToRoot::Heartbeat)?;
            said = Instant::now();
        }
        let waited = heard.elapsed();
        if waited > options.rank_timeout {
            return Err(ClusterError::RootSilent { waited });
        }
    }
}

/// Reads the session's output: keeps the last usable report and sends the answer at
/// `bestmove`. With `wait`, waits up to [`POLL`] for the first line.
fn answer(
    output: &Receiver<Feed>,
    current: &mut Current,
    send: &dyn Fn(&ToRoot) -> Result<(), ClusterError>,
    wait: bool,
) -> Result<(), ClusterError> {
    let mut next =
        if wait { output.recv_timeout(POLL) } else { output.try_recv().map_err(|_| RecvTimeoutError::Timeout) };
    while let Ok(Feed::Line(line)) = next {
        if line.starts_with("bestmove") {
            if !current.answered {
                current.answered = true;
                send(&ToRoot::Answer { id: current.id, info: current.info.take(), bestmove: line })?;
            }
        } else if !current.answered && vote::report(&line).is_some() {
            current.info = Some(line);
        }
        next = output.try_recv().map_err(|_| RecvTimeoutError::Timeout);
    }
    Ok(())
}
