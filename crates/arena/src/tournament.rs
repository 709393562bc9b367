//! A two-engine match: game pairs with colours reversed, several games at
//! once, live statistics (W/D/L, pentanomial Elo with 95% error bars, LOS,
//! SPRT), PGN output that survives interruption, and book learning.

use crate::book::{LearnParams, PolyglotBook};
use crate::openings::Opening;
use crate::pgn;
use crate::referee::{play_game, EngineConfig, GameEnd, GameRecord, Player, RefereeConfig};
use crate::stats::{GameResult, Pentanomial, SprtParams, SprtResult, Wdl};
use crate::time_use::TimeUse;
use bastion_core::Color;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// Book learning during a match (OPENX style): after every game the book
/// file is updated for one engine's moves and saved (atomically).
#[derive(Clone, Debug)]
pub struct BookLearning {
    /// The `.bin` file; created when missing.
    pub path: PathBuf,
    /// Index (0 or 1) of the engine whose moves are learned.
    pub learner: usize,
    /// Rewards, penalties and depth.
    pub params: LearnParams,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are reported from the first one's side.
    pub engines: [EngineConfig; 2],
    /// Time control, margins, adjudication.
    pub referee: RefereeConfig,
    /// Openings, used in order and cycled.
    pub openings: Vec<Opening>,
    /// Number of games (rounded up to even with `repeat`).
    pub games: usize,
    /// Play each opening twice with colours reversed (game pairs).
    pub repeat: bool,
    /// Games played at the same time (each with its own two engine processes).
    pub concurrency: usize,
    /// Stop early when this test decides.
    pub sprt: Option<SprtParams>,
    /// Append finished games to this PGN file.
    pub pgn_out: Option<PathBuf>,
    /// Skip the games already in `pgn_out` (complete pairs only) and count them.
    pub resume: bool,
    /// The PGN Event tag.
    pub event: String,
    /// Learn a book from the games.
    pub learning: Option<BookLearning>,
}

/// Errors that stop a match before or between games.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A bad setting.
    #[error("{0}")]
    Config(String),
    /// The PGN output or book could not be read or written.
    #[error("{0}")]
    Io(String),
}

/// The live and final state of a match, from the first engine's side.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MatchReport {
    /// Engine names: `[tested, opponent]`.
    pub engines: [String; 2],
    /// Games scheduled.
    pub games_planned: usize,
    /// Games finished (interrupted ones are not counted).
    pub games: u64,
    /// Wins of the first engine.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of the first engine.
    pub losses: u64,
    /// Points of the first engine.
    pub points: f64,
    /// Pair results: pairs scoring 0, ½, 1, 1½, 2 points (with `repeat`).
    pub pentanomial: [u64; 5],
    /// Elo difference (first minus second): pentanomial with `repeat`, trinomial otherwise.
    pub elo: Option<f64>,
    /// Half-width of the 95% Elo interval.
    pub elo_error: Option<f64>,
    /// Likelihood of superiority of the first engine.
    pub los: Option<f64>,
    /// Draw ratio.
    pub draw_ratio: Option<f64>,
    /// SPRT state when a test is set.
    pub sprt: Option<SprtReport>,
    /// How games ended, by kind.
    pub terminations: BTreeMap<String, u64>,
    /// Per engine name: time forfeits, illegal moves and crashes it caused.
    pub faults: BTreeMap<String, Faults>,
    /// Games that ended by a fault, with the reason (for the final report).
    pub fault_games: Vec<String>,
    /// Per engine name: time and depth a move and the lowest clock, over the games played in
    /// this run (games taken from an earlier run by `resume` are not timed).
    pub time_use: BTreeMap<String, TimeUse>,
    /// Why the match ended: "completed", "sprt", "interrupted".
    pub finished: Option<String>,
    /// Games taken from an earlier run (`resume`).
    pub resumed_games: u64,
}

/// Faults one engine committed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Faults {
    /// Lost on time.
    pub time_forfeits: u64,
    /// Sent an illegal move.
    pub illegal_moves: u64,
    /// Crashed or broke the protocol.
    pub crashes: u64,
}

/// The SPRT part of a report.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SprtReport {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound (accept H0 below).
    pub lower: f64,
    /// Upper bound (accept H1 above).
    pub upper: f64,
    /// "continue", "H0" or "H1".
    pub result: &'static str,
}

/// `e` with a sign and one decimal, where an even score reads "+0.0" rather than "-0.0".
fn signed_tenths(e: f64) -> String {
    let tenths = (e * 10.0).round() / 10.0;
    // Adding +0.0 turns a negative zero (an even score, or a tiny deficit rounded away) positive.
    format!("{:+.1}", tenths + 0.0)
}

impl MatchReport {
    /// One progress line: games, W/D/L, Elo ± error, LOS, SPRT.
    pub fn summary_line(&self) -> String {
        let pct = if self.games > 0 { 100.0 * self.points / self.games as f64 } else { 0.0 };
        let mut s = format!(
            "Games {}/{}: {} vs {}: W {} D {} L {} ({:.1}/{}, {pct:.1}%)",
            self.games,
            self.games_planned,
            self.engines[0],
            self.engines[1],
            self.wins,
            self.draws,
            self.losses,
            self.points,
            self.games
        );
        // A zero-width interval only means every pair so far scored the same: no error to show.
        match (self.elo, self.elo_error) {
            (Some(e), Some(err)) if e.is_finite() && err.is_finite() && err > 0.0 => {
                s.push_str(&format!(" | Elo {} ± {err:.1}", signed_tenths(e)))
            }
            (Some(e), _) => s.push_str(&format!(" | Elo {}", signed_tenths(e))),
            _ => {}
        }
        // With pairs the Elo and LOS count finished pairs only, which mid-match can be fewer
        // games than the W/D/L above; say how many so the two figures don't seem to disagree.
        let pairs: u64 = self.pentanomial.iter().sum();
        if pairs > 0 {
            s.push_str(&format!(" (pairs {pairs})"));
        }
        if let Some(l) = self.los {
            s.push_str(&format!(" | LOS {:.1}%", 100.0 * l));
        }
        if let Some(sp) = &self.sprt {
            s.push_str(&format!(" | LLR {:.2} ({:.2}, {:.2}) {}", sp.llr, sp.lower, sp.upper, sp.result));
        }
        s
    }

    /// The multi-line final report.
    pub fn final_report(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "Match {} vs {}: {}\n",
            self.engines[0],
            self.engines[1],
            self.finished.as_deref().unwrap_or("running")
        ));
        s.push_str(&self.summary_line());
        s.push('\n');
        if self.pentanomial.iter().sum::<u64>() > 0 {
            s.push_str(&format!("Pentanomial [0, 0.5, 1, 1.5, 2]: {:?}\n", self.pentanomial));
        }
        if let Some(d) = self.draw_ratio {
            s.push_str(&format!("Draw ratio: {:.1}%\n", 100.0 * d));
        }
        s.push_str("Terminations:\n");
        for (k, v) in &self.terminations {
            s.push_str(&format!("  {k}: {v}\n"));
        }
        for (name, f) in &self.faults {
            if *f != Faults::default() {
                s.push_str(&format!(
                    "Faults of {name}: {} time forfeits, {} illegal moves, {} crashes\n",
                    f.time_forfeits, f.illegal_moves, f.crashes
                ));
            }
        }
        for g in &self.fault_games {
            s.push_str(&format!("  {g}\n"));
        }
        for (name, t) in &self.time_use {
            s.push_str(&format!("Time use of {name}: {}\n", t.describe()));
            if let Some(profile) = t.describe_profile() {
                s.push_str(&format!("  {profile}\n"));
            }
        }
        s
    }
}

/// One unit of work: a pair of games (with `repeat`) or a single game.
#[derive(Clone, Copy, Debug)]
struct Unit {
    index: usize,
    opening: usize,
    /// Games in the unit and, for each, whether the first engine has White.
    games: [Option<bool>; 2],
}

impl Unit {
    /// The unit's games as scheduled, in order.
    fn scheduled(&self, repeat: bool) -> impl Iterator<Item = ScheduledGame> + '_ {
        self.games.iter().enumerate().filter_map(move |(game, first)| {
            first.map(|first_is_white| ScheduledGame {
                unit: self.index,
                game,
                opening: self.opening,
                first_is_white,
                round: round_tag(repeat, self.index, game),
            })
        })
    }
}

/// One game of a match's schedule, as [`run_match`] plays it: the unit (a pair with `repeat`,
/// else a single game) and the game within it, the opening and the first engine's colour. A
/// match run elsewhere (on the ranks of a cluster) plays these one at a time with
/// [`play_scheduled`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledGame {
    /// The unit, from 0.
    pub unit: usize,
    /// The game within its unit: 0, or 1 for the second game of a pair.
    pub game: usize,
    /// Index into [`MatchConfig::openings`].
    pub opening: usize,
    /// Whether the first engine has White.
    pub first_is_white: bool,
    /// The PGN `Round` tag: `3`, or `3.2` for the second game of the third pair.
    pub round: String,
}

/// Every game of the match, in game order (by opening, each pair's games together): what
/// [`run_match`] plays, resumed games included.
pub fn scheduled_games(config: &MatchConfig) -> Vec<ScheduledGame> {
    schedule(config).iter().flat_map(|unit| unit.scheduled(config.repeat)).collect()
}

/// The PGN `Round` tag of game `game` of unit `unit`.
fn round_tag(repeat: bool, unit: usize, game: usize) -> String {
    if repeat {
        format!("{}.{}", unit + 1, game + 1)
    } else {
        (unit + 1).to_string()
    }
}

/// Plays one scheduled game with `players` (the first engine's, then the second's), seating
/// them by colour as [`run_match`] does; engines are started when needed and kept for the
/// next game. `stop` is polled between moves.
///
/// # Panics
/// When `game.opening` is not an index of `config.openings` (a game of another match).
pub fn play_scheduled(
    config: &MatchConfig,
    players: &mut [Player; 2],
    game: &ScheduledGame,
    stop: &dyn Fn() -> bool,
) -> GameRecord {
    let [a, b] = players;
    let seats = if game.first_is_white { [a, b] } else { [b, a] };
    play_game(seats, &config.openings[game.opening], &config.referee, stop)
}

/// What a fault was, for [`GameSummary::fault`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FaultKind {
    /// Lost on time.
    TimeForfeit,
    /// Sent an illegal move.
    IllegalMove,
    /// Crashed or broke the protocol.
    Crash,
}

/// A finished game reduced to what the match statistics and the PGN file need, so that a game
/// played in another process can be counted as [`run_match`] counts its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// Its place in the schedule.
    pub game: ScheduledGame,
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How it ended, as counted under the report's terminations ([`GameEnd::key`]).
    pub termination: String,
    /// The engine (by name) that lost by a fault, and the fault.
    pub fault: Option<(String, FaultKind)>,
    /// The sentence that says why it ended.
    pub reason: String,
    /// The game as [`run_match`] writes it to the PGN file.
    pub pgn: String,
    /// Each engine's (by name) clock use in the game.
    #[serde(default)]
    pub time_use: Vec<(String, TimeUse)>,
}

impl GameSummary {
    /// The summary of `record`, game `game` of the match `config`.
    pub fn new(config: &MatchConfig, game: ScheduledGame, record: &GameRecord) -> GameSummary {
        let fault = match &record.end {
            GameEnd::TimeForfeit(c) => Some((*c, FaultKind::TimeForfeit)),
            GameEnd::IllegalMove { side, .. } => Some((*side, FaultKind::IllegalMove)),
            GameEnd::Crash { side, .. } => Some((*side, FaultKind::Crash)),
            _ => None,
        }
        .map(|(side, kind)| (if side == Color::White { &record.white } else { &record.black }.clone(), kind));
        let pgn = record.to_pgn_game(&config.event, PGN_SITE, &game.round, &config.referee.time_control).to_pgn();
        let first_to_move = record.opening.start.side_to_move();
        let [white_use, black_use] = [Color::White, Color::Black].map(|side| {
            let moves = record.timings.iter().enumerate().filter_map(|(ply, t)| {
                let mover = if ply % 2 == 0 { first_to_move } else { !first_to_move };
                t.as_ref().filter(|_| mover == side)
            });
            let tc = record.time_controls.as_ref().map_or(&config.referee.time_control, |t| &t[side.index()]);
            TimeUse::of_game(moves, &game.round, Some(tc))
        });
        GameSummary {
            game,
            result: record.result().to_string(),
            termination: record.end.key().to_string(),
            fault,
            reason: record.reason.clone(),
            pgn,
            time_use: vec![(record.white.clone(), white_use), (record.black.clone(), black_use)],
        }
    }

    /// The winner, from the PGN result.
    fn winner(&self) -> Option<Color> {
        match self.result.as_str() {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            _ => None,
        }
    }
}

/// The PGN `Site` tag of match games.
const PGN_SITE: &str = "Bastion arena";

/// A match's statistics as games are counted, for a match whose games are played elsewhere
/// (on the ranks of a cluster): the report [`run_match`] gives for the same games.
pub struct MatchTally {
    tally: Tally,
}

impl MatchTally {
    /// No games yet.
    pub fn new(config: &MatchConfig) -> MatchTally {
        MatchTally { tally: Tally::new(config, &schedule(config)) }
    }

    /// The games of an earlier run already counted, as [`run_match`] counts them when it resumes.
    pub fn resumed(config: &MatchConfig, resumed: &Resumed) -> MatchTally {
        let mut tally = MatchTally::new(config);
        tally.tally.add_resumed(resumed);
        tally
    }

    /// Counts a finished game.
    pub fn add(&mut self, game: &GameSummary) {
        self.tally.add(game);
    }

    /// The report so far.
    pub fn report(&self) -> &MatchReport {
        &self.tally.report
    }

    /// Whether the SPRT (if the match has one) has decided.
    pub fn sprt_decided(&self) -> bool {
        self.tally.sprt_decided()
    }

    /// The final report: `finished` says "interrupted" when `interrupted`, else "sprt" or
    /// "completed" as [`run_match`] says it.
    pub fn finish(mut self, interrupted: bool) -> MatchReport {
        self.tally.finish(interrupted);
        self.tally.report
    }
}

fn schedule(config: &MatchConfig) -> Vec<Unit> {
    let n = config.openings.len().max(1);
    if config.repeat {
        (0..config.games.div_ceil(2))
            .map(|i| Unit { index: i, opening: i % n, games: [Some(true), Some(false)] })
            .collect()
    } else {
        (0..config.games).map(|i| Unit { index: i, opening: i % n, games: [Some(i % 2 == 0), None] }).collect()
    }
}

/// A finished game with its place in the schedule.
struct Done {
    game: ScheduledGame,
    record: GameRecord,
}

/// Statistics and bookkeeping of the main thread.
struct Tally {
    report: MatchReport,
    wdl: Wdl,
    penta: Pentanomial,
    pending: HashMap<usize, GameResult>,
    repeat: bool,
    sprt: Option<SprtParams>,
}

impl Tally {
    /// No games yet, for the match `config` scheduled as `units`.
    fn new(config: &MatchConfig, units: &[Unit]) -> Tally {
        let mut tally = Tally {
            report: MatchReport {
                engines: [config.engines[0].name.clone(), config.engines[1].name.clone()],
                games_planned: units.iter().map(|u| u.games.iter().flatten().count()).sum(),
                ..MatchReport::default()
            },
            wdl: Wdl::default(),
            penta: Pentanomial::default(),
            pending: HashMap::new(),
            repeat: config.repeat,
            sprt: config.sprt,
        };
        tally.refresh();
        tally
    }

    /// Counts a finished game: result, termination kind, faults and clock use.
    fn add(&mut self, summary: &GameSummary) {
        *self.report.terminations.entry(summary.termination.clone()).or_default() += 1;
        if let Some((name, kind)) = &summary.fault {
            let f = self.report.faults.entry(name.clone()).or_default();
            match kind {
                FaultKind::TimeForfeit => f.time_forfeits += 1,
                FaultKind::IllegalMove => f.illegal_moves += 1,
                FaultKind::Crash => f.crashes += 1,
            }
            self.report.fault_games.push(format!("round {}: {}", summary.game.round, summary.reason));
        }
        for (name, t) in &summary.time_use {
            self.report.time_use.entry(name.clone()).or_default().merge(t);
        }
        self.add_result(summary.game.unit, summary.game.first_is_white, summary.winner());
    }

    /// Counts the games of an earlier run, their terminations marked "(resumed)".
    fn add_resumed(&mut self, resumed: &Resumed) {
        for g in &resumed.games {
            *self.report.terminations.entry(format!("{} (resumed)", g.termination)).or_default() += 1;
            self.add_result(g.unit, g.first_is_white, g.winner);
            self.report.resumed_games += 1;
        }
    }

    /// Says why the match ended.
    fn finish(&mut self, interrupted: bool) {
        let why = if interrupted {
            "interrupted"
        } else if self.sprt_decided() {
            "sprt"
        } else {
            "completed"
        };
        self.report.finished = Some(why.into());
    }

    /// Counts a game's result for the statistics only.
    fn add_result(&mut self, unit: usize, first_is_white: bool, winner: Option<Color>) {
        let first_color = if first_is_white { Color::White } else { Color::Black };
        let r = match winner {
            None => GameResult::Draw,
            Some(c) if c == first_color => GameResult::Win,
            Some(_) => GameResult::Loss,
        };
        self.wdl.record(r);
        if self.repeat {
            match self.pending.remove(&unit) {
                Some(first) => self.penta.record_pair(first, r),
                None => {
                    self.pending.insert(unit, r);
                }
            }
        }
        self.refresh();
    }

    fn refresh(&mut self) {
        let rep = &mut self.report;
        rep.wins = self.wdl.wins;
        rep.draws = self.wdl.draws;
        rep.losses = self.wdl.losses;
        rep.games = self.wdl.games();
        rep.points = self.wdl.wins as f64 + 0.5 * self.wdl.draws as f64;
        rep.pentanomial = self.penta.counts;
        rep.draw_ratio = self.wdl.draw_ratio();
        let (est, los) = if self.repeat && self.penta.pairs() > 0 {
            (self.penta.elo_estimate(), self.penta.los())
        } else {
            (self.wdl.elo_estimate(), self.wdl.los())
        };
        rep.elo = est.map(|e| e.elo);
        rep.elo_error = est.map(|e| e.error_margin());
        rep.los = los;
        rep.sprt = self.sprt.map(|p| {
            let st = if self.repeat { p.status_pentanomial(&self.penta) } else { p.status_trinomial(&self.wdl) };
            SprtReport {
                elo0: p.elo0(),
                elo1: p.elo1(),
                llr: st.llr,
                lower: st.lower,
                upper: st.upper,
                result: match st.result {
                    SprtResult::Continue => "continue",
                    SprtResult::AcceptH0 => "H0",
                    SprtResult::AcceptH1 => "H1",
                },
            }
        });
    }

    fn sprt_decided(&self) -> bool {
        self.report.sprt.is_some_and(|s| s.result != "continue")
    }
}

/// Runs a match. `interrupt` stops it (games in progress end as
/// interrupted and are not counted or written); `on_game` sees every
/// finished game and the report after it. Returns the final report.
pub fn run_match(
    config: &MatchConfig,
    interrupt: Arc<AtomicBool>,
    mut on_game: impl FnMut(&GameRecord, &MatchReport),
) -> Result<MatchReport, MatchError> {
    if config.openings.is_empty() {
        return Err(MatchError::Config("no openings".into()));
    }
    if config.games == 0 {
        return Err(MatchError::Config("--games must be at least 1".into()));
    }
    // Fail fast on an engine that cannot even start, rather than forfeiting every game.
    for e in &config.engines {
        e.start().map_err(|err| MatchError::Config(format!("cannot start engine {}: {err}", e.name)))?;
    }
    let units = schedule(config);
    let mut tally = Tally::new(config, &units);
    // Resume: keep complete units already in the PGN file, drop partial ones.
    let resumed = Resumed::read(config)?;
    tally.add_resumed(&resumed);
    let mut book = match &config.learning {
        Some(l) if l.path.exists() => Some(PolyglotBook::open(&l.path).map_err(|e| MatchError::Io(e.to_string()))?),
        Some(_) => Some(PolyglotBook::default()),
        None => None,
    };
    let mut pgn_file = match &config.pgn_out {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| MatchError::Io(format!("{}: {e}", p.display())))?,
        ),
        None => None,
    };
    if tally.sprt_decided() {
        tally.report.finished = Some("sprt".into());
        return Ok(tally.report);
    }

    let todo: Vec<Unit> = units.iter().copied().filter(|u| !resumed.is_done(u.index)).collect();
    let next = AtomicUsize::new(0);
    let no_more = AtomicBool::new(false);
    // A rendezvous channel: a worker waits until its game has been counted, so
    // workers never run ahead of the tally and an SPRT stop is prompt even when
    // the main thread is slow (a loaded machine, a slow PGN disk).
    let (tx, rx) = mpsc::sync_channel::<Done>(0);
    let workers = config.concurrency.clamp(1, todo.len().max(1));
    let mut io_error = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (todo, next, no_more, interrupt) = (&todo, &next, &no_more, &interrupt);
            scope.spawn(move || {
                let mut players = [Player::new(config.engines[0].clone()), Player::new(config.engines[1].clone())];
                loop {
                    if no_more.load(Ordering::Relaxed) || interrupt.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(unit) = todo.get(i) else { break };
                    for game in unit.scheduled(config.repeat) {
                        let stop = || interrupt.load(Ordering::Relaxed);
                        let record = play_scheduled(config, &mut players, &game, &stop);
                        if record.end == GameEnd::Interrupted {
                            return;
                        }
                        if tx.send(Done { game, record }).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(tx);
        for done in rx {
            let first_is_white = done.game.first_is_white;
            let summary = GameSummary::new(config, done.game, &done.record);
            if let Some(f) = pgn_file.as_mut() {
                // One write per game, flushed: an interruption never leaves half a game behind.
                if let Err(e) = f.write_all(summary.pgn.as_bytes()).and_then(|()| f.flush()) {
                    io_error.get_or_insert(format!("writing PGN: {e}"));
                }
            }
            if let (Some(b), Some(l)) = (book.as_mut(), &config.learning) {
                let learner = if (l.learner == 0) == first_is_white { Color::White } else { Color::Black };
                b.learn(&done.record.opening.start, &done.record.moves, learner, done.record.winner, &l.params);
                if let Err(e) = b.save(&l.path) {
                    io_error.get_or_insert(format!("saving book: {e}"));
                }
            }
            tally.add(&summary);
            on_game(&done.record, &tally.report);
            if tally.sprt_decided() || io_error.is_some() {
                no_more.store(true, Ordering::Relaxed);
            }
        }
    });
    if let Some(e) = io_error {
        return Err(MatchError::Io(e));
    }
    tally.finish(interrupt.load(Ordering::Relaxed));
    Ok(tally.report)
}

/// The games an earlier run of a match left in its PGN file, for `resume`: the complete units
/// (a pair with `repeat`, else a game), which are counted and not played again. Games of
/// incomplete units are dropped from the file and played again.
#[derive(Clone, Debug, Default)]
pub struct Resumed {
    /// By unit: whether it is complete in the file.
    done: Vec<bool>,
    /// The kept games, in the file's order.
    games: Vec<ResumedGame>,
}

/// One kept game of [`Resumed`], as much of it as the statistics need.
#[derive(Clone, Debug)]
struct ResumedGame {
    unit: usize,
    first_is_white: bool,
    winner: Option<Color>,
    termination: String,
}

impl Resumed {
    /// Reads `config.pgn_out` when `config.resume` is set and the file exists (else nothing is
    /// resumed), keeps the complete units of this match's schedule and rewrites the file
    /// (atomically) with their games only, so that new games are appended after them.
    pub fn read(config: &MatchConfig) -> Result<Resumed, MatchError> {
        let units = schedule(config);
        let mut resumed = Resumed { done: vec![false; units.len()], games: Vec::new() };
        let path = match (config.resume, &config.pgn_out) {
            (true, Some(path)) if path.exists() => path,
            _ => return Ok(resumed),
        };
        let io = |e: std::io::Error| MatchError::Io(format!("{}: {e}", path.display()));
        let file = bastion_core::io::open_bounded(path, bastion_core::io::TEXT_LIMIT).map_err(|e| io(e.into_io()))?;
        let games = pgn::read_games(file).map_err(io)?;
        let mut by_unit: BTreeMap<usize, Vec<(usize, pgn::PgnGame)>> = BTreeMap::new();
        for g in games {
            let Some(round) = g.header("Round") else { continue };
            let (u, k) = round.split_once('.').unwrap_or((round, "1"));
            let (Ok(u), Ok(k)) = (u.parse::<usize>(), k.parse::<usize>()) else { continue };
            if u == 0 || k == 0 || u > units.len() || g.winner().is_none() {
                continue;
            }
            by_unit.entry(u - 1).or_default().push((k - 1, g));
        }
        let mut keep = String::new();
        for (u, mut games) in by_unit {
            games.sort_by_key(|(k, _)| *k);
            games.dedup_by_key(|(k, _)| *k);
            let expected = units[u].games.iter().flatten().count();
            if games.len() != expected {
                continue;
            }
            for (_, g) in &games {
                resumed.games.push(ResumedGame {
                    unit: u,
                    first_is_white: g.header("White") == Some(config.engines[0].name.as_str()),
                    winner: g.winner().flatten(),
                    termination: g.header("Termination").unwrap_or("normal").to_string(),
                });
                keep.push_str(&g.to_pgn());
            }
            resumed.done[u] = true;
        }
        bastion_core::io::write_atomically(path, "pgn.tmp", keep.as_bytes()).map_err(io)?;
        Ok(resumed)
    }

    /// Whether unit `unit` (a game's [`ScheduledGame::unit`]) is complete and not played again.
    pub fn is_done(&self, unit: usize) -> bool {
        self.done.get(unit).copied().unwrap_or(false)
    }

    /// How many games were kept.
    pub fn games(&self) -> usize {
        self.games.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_prints_a_positive_zero() {
        assert_eq!(signed_tenths(-0.0), "+0.0");
        assert_eq!(signed_tenths(-0.04), "+0.0");
        assert_eq!(signed_tenths(-0.05), "-0.1");
        assert_eq!(signed_tenths(92.46), "+92.5");
        assert_eq!(signed_tenths(f64::INFINITY), "+inf");
    }

    #[test]
    fn the_progress_line_says_how_many_pairs_its_elo_counts() {
        // Three games, one finished pair (a draw, then a win): the Elo is the pair's, not the 2.5/3.
        let rep = MatchReport {
            engines: ["a".into(), "b".into()],
            games_planned: 10,
            games: 3,
            wins: 2,
            draws: 1,
            points: 2.5,
            pentanomial: [0, 0, 0, 1, 0],
            elo: Some(190.8),
            elo_error: Some(0.0),
            ..MatchReport::default()
        };
        let line = rep.summary_line();
        assert!(line.contains("(2.5/3, 83.3%) | Elo +190.8 (pairs 1)"), "{line}");
        assert!(!line.contains('±'), "a zero-width interval is not an error bar: {line}");

        let rep = MatchReport { pentanomial: [0, 1, 0, 1, 0], elo_error: Some(150.0), ..rep };
        assert!(rep.summary_line().contains("Elo +190.8 ± 150.0 (pairs 2)"), "{}", rep.summary_line());

        let rep = MatchReport { pentanomial: [0; 5], ..rep };
        assert!(!rep.summary_line().contains("pairs"), "no pairs without repeat: {}", rep.summary_line());
    }
}
