//! Matches on many ranks: every game of the schedule (opening × colour) is one item of the
//! queue, played on some rank with `bastion_arena::tournament::play_scheduled` (the function
//! `bastion match` plays its games with). Rank 0 counts the results as they arrive, so that an
//! SPRT decides as soon as it can and no more games are handed out, writes the PGN in game
//! order, and reports what `bastion match` reports for the same games.

use crate::queue::{distribute_interruptible, release, Event, QueueOptions};
use crate::{ClusterError, Peer, Transport};
use bastion_arena::referee::Player;
use bastion_arena::tournament::{
    play_scheduled, scheduled_games, GameSummary, MatchConfig, MatchReport, MatchTally, Resumed, ScheduledGame,
};
use std::cell::RefCell;
use std::io::Write;
use std::sync::Mutex;

/// The work function of a match for the queue, on every rank: plays the games it is given
/// with one pair of engines that stay running from game to game, as a `bastion match` worker
/// does (each game starts with `ucinewgame`). A game whose interrupt test turns true (the
/// SPRT decided: [`crate::queue::release`]) ends before the next move.
pub fn game_worker(
    config: MatchConfig,
) -> impl Fn(&ScheduledGame, &dyn Fn() -> bool) -> Result<GameSummary, String> + Send + 'static {
    let players = Mutex::new([Player::new(config.engines[0].clone()), Player::new(config.engines[1].clone())]);
    move |game: &ScheduledGame, interrupted: &dyn Fn() -> bool| {
        if game.opening >= config.openings.len() {
            return Err(format!(
                "game {} asks for opening {}, which this rank does not have",
                game.round,
                game.opening + 1
            ));
        }
        let mut players = players.lock().map_err(|_| "an earlier game panicked".to_string())?;
        let record = play_scheduled(&config, &mut players, game, interrupted);
        Ok(GameSummary::new(&config, game.clone(), &record))
    }
}

/// What rank 0 sees while a distributed match runs.
#[derive(Debug)]
pub enum MatchEvent<'a> {
    /// A rank has started (rank 0 itself first).
    Joined {
        /// The rank.
        rank: usize,
        /// Where it runs.
        peer: &'a Peer,
    },
    /// A game has been counted.
    Game {
        /// The rank that played it.
        rank: usize,
        /// The game.
        game: &'a GameSummary,
        /// The report after it (results in the order they arrived).
        report: &'a MatchReport,
    },
}

/// Rank 0's state while the queue runs, shared by the event handler and the stop test.
struct Lead<'w> {
    tally: MatchTally,
    /// Results by game number; the PGN gets each game once all before it are written.
    games: Vec<Option<GameSummary>>,
    written: usize,
    pgn: Option<&'w mut dyn Write>,
    pgn_error: Option<String>,
}

impl Lead<'_> {
    /// Writes the games from the first unwritten one up to the next missing one (all that are
    /// left with `all`), one flushed write per game as `bastion match` does.
    fn write_pgn(&mut self, all: bool) {
        while self.written < self.games.len() {
            match (&self.games[self.written], self.pgn.as_mut()) {
                (Some(game), Some(out)) if self.pgn_error.is_none() => {
                    if let Err(e) = out.write_all(game.pgn.as_bytes()).and_then(|()| out.flush()) {
                        self.pgn_error = Some(format!("writing PGN: {e}"));
                    }
                }
                (None, _) if !all => return,
                _ => {}
            }
            self.written += 1;
        }
    }
}

/// Runs the match `config` on every rank of the job and returns its final report; called on
/// rank 0 while every other rank calls [`crate::serve`] with [`game_worker`].
///
/// Results are counted as they arrive: when the match's SPRT decides, no more games are handed
/// out, every rank abandons its game in progress before its next move and leaves (those games
/// are not counted; `bastion match` counts games in progress at the decision), and the report
/// says "sprt".
/// `pgn`, when given, receives the games in game order (by opening, a pair's games together),
/// each as soon as every game before it is in. The report is counted in game order at the end,
/// so it equals `bastion match`'s (one game at a time) for the same games.
///
/// The units `resumed` holds (an earlier run's games, [`Resumed::read`]) are counted first and
/// not played again, as `bastion match --resume` does; the caller opens `pgn` for appending
/// after reading them.
///
/// `interrupt` is polled between messages; when set, the job ends with
/// [`ClusterError::Stopped`] after the finished games are written. A failing rank, a silent one
/// or a PGN that cannot be written ends it with an error, after which the caller ends the job
/// (the other ranks may still be playing).
pub fn lead_match(
    transport: &dyn Transport,
    config: &MatchConfig,
    resumed: &Resumed,
    options: &QueueOptions,
    interrupt: &dyn Fn() -> bool,
    pgn: Option<&mut dyn Write>,
    mut on_event: impl FnMut(MatchEvent<'_>),
) -> Result<MatchReport, ClusterError> {
    let tasks: Vec<ScheduledGame> = scheduled_games(config).into_iter().filter(|g| !resumed.is_done(g.unit)).collect();
    let lead = RefCell::new(Lead {
        tally: MatchTally::resumed(config, resumed),
        games: vec![None; tasks.len()],
        written: 0,
        pgn,
        pgn_error: None,
    });
    let decided = || {
        let lead = lead.borrow();
        lead.tally.sprt_decided() || lead.pgn_error.is_some()
    };
    let outcome = distribute_interruptible(
        transport,
        &tasks,
        game_worker(config.clone()),
        options,
        &|| interrupt() || decided(),
        |event: Event<'_, GameSummary>| match event {
            Event::Joined { rank, peer } => on_event(MatchEvent::Joined { rank, peer }),
            Event::Finished { rank, index, result } => {
                let mut lead = lead.borrow_mut();
                lead.tally.add(result);
                lead.games[index] = Some(result.clone());
                lead.write_pgn(false);
                on_event(MatchEvent::Game { rank, game: result, report: lead.tally.report() });
            }
        },
    );
    let mut lead = lead.into_inner();
    lead.write_pgn(true);
    if let Some(message) = lead.pgn_error.take() {
        return Err(ClusterError::Failed { rank: 0, peer: None, message });
    }
    match outcome {
        Ok(_) => {}
        // The SPRT decided: the ranks still playing abandon their games and leave.
        Err(ClusterError::Stopped { out, .. }) if lead.tally.sprt_decided() => release(transport, &out),
        Err(e) => return Err(e),
    }
    // Counted again in game order, so that the list of faulty games is in round order as in a
    // single-process run whatever order the ranks finished in.
    let mut tally = MatchTally::resumed(config, resumed);
    for game in lead.games.iter().flatten() {
        tally.add(game);
    }
    Ok(tally.finish(false))
}
