//! The referee: plays one game between two UCI engines under the rules of
//! the core ([`bastion_core::Game`]), keeps the clocks, and ends the game
//! by rule, forfeit (illegal move, crash, time) or adjudication.

use crate::book::PolyglotBook;
use crate::openings::Opening;
use crate::pgn::PgnGame;
use crate::time_control::TimeControl;
use crate::time_use::MoveTiming;
use bastion_core::rng::Rng;
use bastion_core::{Color, Game, Move, Position, Score, TablebaseProbe, Termination};
use bastion_uci_client::{Engine, EngineBuilder, GoParams, SearchResult, StderrMode, UciError};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// "Both engines agree the game is decided": after both sides reported,
/// for `moves` consecutive moves each, a score of at least `score_cp` for
/// the same side, that side wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Moves per side.
    pub moves: u32,
    /// Threshold in centipawns (mate scores always pass).
    pub score_cp: i32,
}

/// "A dead draw": from move `min_move` on, when both sides reported
/// `|score| <= score_cp` for `moves` consecutive moves each, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First full move number at which the rule may apply.
    pub min_move: u32,
    /// Moves per side.
    pub moves: u32,
    /// Threshold in centipawns.
    pub score_cp: i32,
}

/// Adjudication rules; all off by default.
#[derive(Clone, Default)]
pub struct Adjudication {
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Draw after this many full moves (a safety net for endless games).
    pub max_moves: Option<u32>,
    /// Tablebase adjudication: a position the tables cover ends the game with their
    /// result under the 50-move rule (cursed wins and blessed losses are draws).
    pub tablebase: Option<Arc<dyn TablebaseProbe>>,
}

impl fmt::Debug for Adjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Adjudication")
            .field("resign", &self.resign)
            .field("draw", &self.draw)
            .field("max_moves", &self.max_moves)
            .field("tablebase", &self.tablebase.as_ref().map(|t| t.max_pieces()))
            .finish()
    }
}

/// How games are played.
#[derive(Clone, Debug)]
pub struct RefereeConfig {
    /// The thinking limit.
    pub time_control: TimeControl,
    /// Grace on top of the clock before a late move is a time forfeit
    /// (covers process and pipe latency).
    pub time_margin: Duration,
    /// For node and depth limits, which have no clock: the longest a move
    /// may take before it is a forfeit.
    pub move_timeout: Duration,
    /// Adjudication rules.
    pub adjudication: Adjudication,
}

impl Default for RefereeConfig {
    fn default() -> Self {
        RefereeConfig {
            time_control: TimeControl::MoveTime(Duration::from_millis(100)),
            time_margin: Duration::from_millis(100),
            move_timeout: Duration::from_secs(60),
            adjudication: Adjudication::default(),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// By the rules of chess (mate, stalemate, repetition, 50 moves, material).
    Rules(Termination),
    /// A side ran out of time.
    TimeForfeit(Color),
    /// A side sent an illegal move, or no move when it had some.
    IllegalMove {
        /// Who.
        side: Color,
        /// What it sent.
        sent: String,
    },
    /// A side's engine crashed or broke the protocol.
    Crash {
        /// Who.
        side: Color,
        /// What happened.
        detail: String,
    },
    /// Both engines agreed one side is winning.
    ResignAdjudication,
    /// Both engines agreed the game is a dead draw.
    DrawAdjudication,
    /// A tablebase knows the result.
    TablebaseAdjudication,
    /// The move limit was reached.
    MaxMoves,
    /// The match was stopped while this game ran.
    Interrupted,
}

impl GameEnd {
    /// The PGN `Termination` tag value.
    pub fn pgn_termination(&self) -> &'static str {
        match self {
            GameEnd::Rules(_) => "normal",
            GameEnd::TimeForfeit(_) => "time forfeit",
            GameEnd::IllegalMove { .. } => "rules infraction",
            GameEnd::Crash { .. } => "abandoned",
            GameEnd::ResignAdjudication
            | GameEnd::DrawAdjudication
            | GameEnd::TablebaseAdjudication
            | GameEnd::MaxMoves => "adjudication",
            GameEnd::Interrupted => "unterminated",
        }
    }

    /// A short key for counting terminations in reports.
    pub fn key(&self) -> &'static str {
        match self {
            GameEnd::Rules(Termination::Checkmate) => "checkmate",
            GameEnd::Rules(Termination::Stalemate) => "stalemate",
            GameEnd::Rules(Termination::InsufficientMaterial) => "insufficient material",
            GameEnd::Rules(Termination::FiftyMoves | Termination::SeventyFiveMoves) => "50 moves",
            GameEnd::Rules(Termination::ThreefoldRepetition | Termination::FivefoldRepetition) => "repetition",
            GameEnd::TimeForfeit(_) => "time forfeit",
            GameEnd::IllegalMove { .. } => "illegal move",
            GameEnd::Crash { .. } => "crash",
            GameEnd::ResignAdjudication => "resign adjudication",
            GameEnd::DrawAdjudication => "draw adjudication",
            GameEnd::TablebaseAdjudication => "tablebase adjudication",
            GameEnd::MaxMoves => "move limit",
            GameEnd::Interrupted => "interrupted",
        }
    }
}

/// A finished (or interrupted) game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// The opening it started from.
    pub opening: Opening,
    /// All moves from `opening.start`, book moves included.
    pub moves: Vec<Move>,
    /// Per-move comments: `book`, or `score/depth time` as cutechess writes them.
    pub comments: Vec<String>,
    /// Per move: how the engine's move was timed (`None` for book moves).
    pub timings: Vec<Option<MoveTiming>>,
    /// `None` for a draw (or an interrupted game).
    pub winner: Option<Color>,
    /// Why it ended.
    pub end: GameEnd,
    /// A sentence for the PGN and reports, e.g. "Black's engine crashed".
    pub reason: String,
    /// When the game started (UTC, for the PGN Date tag).
    pub started: std::time::SystemTime,
    /// White's and Black's time controls when an engine has its own (time odds).
    pub time_controls: Option<[TimeControl; 2]>,
}

impl GameRecord {
    /// The PGN result string.
    pub fn result(&self) -> &'static str {
        match (&self.end, self.winner) {
            (GameEnd::Interrupted, _) => "*",
            (_, Some(Color::White)) => "1-0",
            (_, Some(Color::Black)) => "0-1",
            (_, None) => "1/2-1/2",
        }
    }

    /// The game as a PGN record with the given Event/Site/Round and time control. At time
    /// odds the sides' own controls are written as `WhiteTimeControl` and
    /// `BlackTimeControl`, as cutechess-cli does, instead of `TimeControl`.
    pub fn to_pgn_game(&self, event: &str, site: &str, round: &str, tc: &TimeControl) -> PgnGame {
        let mut g = PgnGame::new(self.opening.start.clone());
        g.set_header("Event", event);
        g.set_header("Site", site);
        g.set_header("Date", pgn_date(self.started));
        g.set_header("Round", round);
        g.set_header("White", self.white.clone());
        g.set_header("Black", self.black.clone());
        match self.time_controls {
            Some([w, b]) if w != b => {
                g.set_header("WhiteTimeControl", w.pgn_tag());
                g.set_header("BlackTimeControl", b.pgn_tag());
            }
            Some([w, _]) => g.set_header("TimeControl", w.pgn_tag()),
            None => g.set_header("TimeControl", tc.pgn_tag()),
        }
        g.set_header("Termination", self.end.pgn_termination());
        g.set_header("TerminationDetails", self.reason.clone());
        if let Some(name) = &self.opening.name {
            g.set_header("Opening", name.clone());
        }
        g.set_header("PlyCount", self.moves.len().to_string());
        g.moves = self.moves.clone();
        g.comments = self.comments.clone();
        if let Some(last) = g.comments.last_mut() {
            if !last.is_empty() {
                last.push_str(", ");
            }
            last.push_str(&self.reason);
        }
        g.result = self.result().to_string();
        g
    }
}

/// `YYYY.MM.DD` in UTC for a system time (civil-from-days, no time-zone crate needed).
pub fn pgn_date(t: std::time::SystemTime) -> String {
    let secs = t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// How to start one engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// Name used in reports and PGN.
    pub name: String,
    /// Shell-style command line.
    pub command: String,
    /// Working directory, if not the current one.
    pub dir: Option<String>,
    /// UCI options set after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// A Polyglot book the referee plays from on this engine's behalf
    /// (weighted random choice), reread before every game so that a book
    /// being learned during the match is used as it grows.
    pub book: Option<String>,
    /// Book moves are played only in the first this-many plies of a game.
    pub book_depth: usize,
    /// This engine's own clock (`tc=2.5+0.025`, as in cutechess-cli), for matches at
    /// time odds; `None`: the match's time control.
    pub tc: Option<TimeControl>,
}

/// Default of [`EngineConfig::book_depth`], in plies.
pub const DEFAULT_BOOK_DEPTH: usize = 20;

impl EngineConfig {
    /// Parses `name=A cmd=./engine dir=/x book=b.bin bookdepth=16 tc=2.5+0.025 option.Hash=64 …`
    /// (the `--engine` arguments of `bastion match`); `cmd` is required,
    /// `name` defaults to it.
    pub fn parse(words: &[String]) -> Result<EngineConfig, String> {
        let mut cfg = EngineConfig { book_depth: DEFAULT_BOOK_DEPTH, ..EngineConfig::default() };
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| format!("engine argument {w:?} is not key=value"))?;
            match k {
                "name" => cfg.name = v.to_string(),
                "cmd" => cfg.command = v.to_string(),
                "dir" => cfg.dir = Some(v.to_string()),
                "book" => cfg.book = Some(v.to_string()),
                "bookdepth" => cfg.book_depth = v.parse().map_err(|_| format!("bookdepth={v:?} is not a number"))?,
                "tc" => cfg.tc = Some(TimeControl::parse_clock(v).map_err(|e| format!("tc={v:?}: {e}"))?),
                _ => match k.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => cfg.options.push((opt.to_string(), v.to_string())),
                    _ => {
                        return Err(format!(
                            "unknown engine key {k:?} (use name=, cmd=, dir=, book=, bookdepth=, tc=, option.NAME=)"
                        ))
                    }
                },
            }
        }
        if cfg.command.trim().is_empty() {
            return Err("engine needs cmd=COMMAND".into());
        }
        if cfg.name.is_empty() {
            cfg.name = cfg.command.clone();
        }
        Ok(cfg)
    }

    /// Starts the engine, sets its options and waits until it is ready.
    pub fn start(&self) -> Result<Engine, UciError> {
        let mut b = EngineBuilder::from_command_line(&self.command)?.stderr(StderrMode::Discard);
        if let Some(d) = &self.dir {
            b = b.current_dir(d);
        }
        let mut e = b.spawn()?;
        for (k, v) in &self.options {
            e.set_option(k, v)?;
        }
        e.is_ready(Duration::from_secs(30))?;
        Ok(e)
    }
}

/// An engine taking part in games: its configuration and, once started, its process.
#[derive(Debug)]
pub struct Player {
    /// How to (re)start it.
    pub config: EngineConfig,
    engine: Option<Engine>,
    book: Option<PolyglotBook>,
    rng: Rng,
}

impl Player {
    /// A player whose engine starts on first use.
    pub fn new(config: EngineConfig) -> Player {
        // Book choices need variety across games and workers, not reproducibility.
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
        static PLAYERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = PLAYERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let rng = Rng::new(nanos ^ (u64::from(std::process::id()) << 32) ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        Player { config, engine: None, book: None, rng }
    }

    /// Rereads the book, if one is configured; a missing file is an empty book.
    fn load_book(&mut self) -> Result<(), String> {
        self.book = match &self.config.book {
            Some(path) if std::path::Path::new(path).exists() => {
                Some(PolyglotBook::open(path).map_err(|e| e.to_string())?)
            }
            _ => None,
        };
        Ok(())
    }

    /// A book move for `pos` at ply `ply` of the game, if the book has one.
    fn book_move(&mut self, pos: &Position, ply: usize) -> Option<Move> {
        if ply >= self.config.book_depth {
            return None;
        }
        let book = self.book.as_ref()?;
        book.pick_weighted(pos, self.rng.next_u64())
    }

    /// The running engine, starting it if needed.
    fn engine(&mut self) -> Result<&mut Engine, UciError> {
        if self.engine.is_none() {
            self.engine = Some(self.config.start()?);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// Drops the process so the next game starts a fresh one (after a crash or timeout).
    fn discard(&mut self) {
        self.engine = None;
    }
}

/// The score a side reported, from White's point of view, in centipawns
/// (mates as ±100000 minus the distance).
fn white_cp(score: Score, mover: Color) -> i32 {
    let own = match score {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    };
    own * mover.sign()
}

/// cutechess-style move comment: `+0.35/12 0.101s`, `+M5/20 1.2s`.
fn move_comment(result: &SearchResult) -> String {
    let score = match result.score() {
        Some(Score::Cp(c)) => format!("{:+.2}", f64::from(c) / 100.0),
        Some(Score::Mate(n)) if n > 0 => format!("+M{n}"),
        Some(Score::Mate(n)) => format!("-M{}", -n),
        None => "?".into(),
    };
    let depth = result.depth().map_or(String::new(), |d| format!("/{d}"));
    format!("{score}{depth} {:.3}s", result.elapsed.as_secs_f64())
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Plays one game: `players[0]` has White. Engines are started if needed
/// and kept running for the next game unless they crashed or timed out.
/// `stop` is polled between moves; when set, the game ends as interrupted.
pub fn play_game(
    players: [&mut Player; 2],
    opening: &Opening,
    config: &RefereeConfig,
    stop: &dyn Fn() -> bool,
) -> GameRecord {
    let [white, black] = players;
    let mut record = GameRecord {
        white: white.config.name.clone(),
        black: black.config.name.clone(),
        opening: opening.clone(),
        moves: Vec::new(),
        comments: Vec::new(),
        timings: Vec::new(),
        winner: None,
        end: GameEnd::Interrupted,
        reason: "interrupted".into(),
        started: std::time::SystemTime::now(),
        time_controls: (white.config.tc.is_some() || black.config.tc.is_some())
            .then(|| [white.config.tc.unwrap_or(config.time_control), black.config.tc.unwrap_or(config.time_control)]),
    };
    let mut game = Game::new(opening.start.clone());
    for &m in &opening.moves {
        game.make(m);
        record.moves.push(m);
        record.comments.push("book".into());
        record.timings.push(None);
    }
    let mut sides = [white, black];
    // Prepare both engines for a new game; a failure here forfeits the game.
    for color in Color::ALL {
        let p = &mut sides[color.index()];
        let ready = p.engine().and_then(|e| {
            e.new_game()?;
            e.is_ready(Duration::from_secs(30))
        });
        let ready = ready.map_err(|e| e.to_string()).and_then(|()| p.load_book());
        if let Err(err) = ready {
            p.discard();
            return finish(record, Some(!color), GameEnd::Crash { side: color, detail: err });
        }
    }
    let start_fen =
        if opening.start.fen() == bastion_core::fen::STARTPOS { "startpos".to_string() } else { opening.start.fen() };
    // Each side's own limit: the match's, or the engine's `tc=` at time odds.
    let tcs = record.time_controls.unwrap_or([config.time_control; 2]);
    let clock_of = |tc: TimeControl| match tc {
        TimeControl::Clock { base, increment, moves } => (base, increment, moves),
        _ => (Duration::ZERO, Duration::ZERO, None),
    };
    let (bases, increments, periods) = {
        let (w, b) = (clock_of(tcs[0]), clock_of(tcs[1]));
        ([w.0, b.0], [w.1, b.1], [w.2, b.2])
    };
    let mut clock = bases;
    let mut moves_made = [0u32; 2];
    // White-relative scores of each engine move, in order, for adjudication.
    let mut scores: Vec<(Color, Option<i32>)> = Vec::new();
    let first_engine_ply = game.moves().len();

    loop {
        if let Some(o) = game.outcome(true) {
            return finish(record, o.winner, GameEnd::Rules(o.termination));
        }
        if let Some((winner, end)) = adjudicate(&game, &scores, first_engine_ply, &config.adjudication) {
            return finish(record, winner, end);
        }
        if stop() {
            return finish(record, None, GameEnd::Interrupted);
        }
        let pos = game.position().clone();
        let us = pos.side_to_move();
        let (go, limit) = match tcs[us.index()] {
            TimeControl::Clock { .. } => {
                let mut go = GoParams::clock(clock[0], clock[1], increments[0], increments[1]);
                if let Some(p) = periods[us.index()] {
                    go.movestogo = Some(p - moves_made[us.index()] % p);
                }
                (go, clock[us.index()] + config.time_margin)
            }
            TimeControl::MoveTime(t) => (GoParams::movetime(t), t + config.time_margin),
            TimeControl::Nodes(n) => (GoParams::nodes(n), config.move_timeout),
            TimeControl::Depth(d) => (GoParams::depth(d), config.move_timeout),
        };
        let uci_moves: Vec<String> = {
            let mut p = opening.start.clone();
            game.moves()
                .iter()
                .map(|&m| {
                    let s = p.to_uci(m);
                    p = p.play(m);
                    s
                })
                .collect()
        };
        let player = &mut sides[us.index()];
        if let Some(m) = player.book_move(&pos, game.moves().len()) {
            record.comments.push("book".into());
            record.timings.push(None);
            record.moves.push(m);
            game.make(m);
            continue;
        }
        let searched = player.engine().and_then(|e| {
            e.position(&start_fen, &uci_moves)?;
            e.search(&go, limit)
        });
        let result = match searched {
            Ok(r) => r,
            Err(err) => {
                player.discard();
                if err.is_timeout() {
                    return time_forfeit(record, &pos, us);
                }
                let detail = if err.is_crash() { format!("crashed: {err}") } else { err.to_string() };
                return finish(record, Some(!us), GameEnd::Crash { side: us, detail });
            }
        };
        let mut clock_left = None;
        if let TimeControl::Clock { .. } = tcs[us.index()] {
            let left = clock[us.index()];
            clock_left = Some(left.saturating_sub(result.elapsed));
            if result.elapsed > left + config.time_margin {
                return time_forfeit(record, &pos, us);
            }
            moves_made[us.index()] += 1;
            clock[us.index()] =
                tcs[us.index()].clock_after_move(left.saturating_sub(result.elapsed), moves_made[us.index()]);
        }
        let sent = result.best_move().unwrap_or("(none)").to_string();
        let Ok(m) = pos.parse_uci(&sent) else {
            return finish(record, Some(!us), GameEnd::IllegalMove { side: us, sent });
        };
        scores.push((us, result.score().map(|s| white_cp(s, us))));
        record.comments.push(move_comment(&result));
        record.timings.push(Some(MoveTiming { elapsed: result.elapsed, depth: result.depth(), clock_left }));
        record.moves.push(m);
        game.make(m);
    }
}

fn time_forfeit(record: GameRecord, pos: &Position, loser: Color) -> GameRecord {
    // FIDE 6.9: a flag fall is a draw when the opponent cannot mate by any series of legal moves.
    let winner = if pos.has_insufficient_material(!loser) { None } else { Some(!loser) };
    finish(record, winner, GameEnd::TimeForfeit(loser))
}

/// Applies the adjudication rules to the game so far.
fn adjudicate(
    game: &Game,
    scores: &[(Color, Option<i32>)],
    first_engine_ply: usize,
    rules: &Adjudication,
) -> Option<(Option<Color>, GameEnd)> {
    let pos = game.position();
    if let Some(tb) = &rules.tablebase {
        if pos.occupied().count() <= tb.max_pieces() && pos.castling().is_empty() {
            if let Some(wdl) = tb.probe_wdl(pos) {
                let winner = match wdl.result() {
                    1 => Some(pos.side_to_move()),
                    -1 => Some(!pos.side_to_move()),
                    _ => None,
                };
                return Some((winner, GameEnd::TablebaseAdjudication));
            }
        }
    }
    if let Some(r) = rules.resign {
        let n = 2 * r.moves as usize;
        if r.moves > 0 && scores.len() >= n {
            let last = &scores[scores.len() - n..];
            for winner in Color::ALL {
                if last.iter().all(|&(_, s)| s.is_some_and(|s| s * winner.sign() >= r.score_cp)) {
                    return Some((Some(winner), GameEnd::ResignAdjudication));
                }
            }
        }
    }
    if let Some(d) = rules.draw {
        let n = 2 * d.moves as usize;
        let moves_played = (game.moves().len() - first_engine_ply) / 2;
        if d.moves > 0
            && scores.len() >= n
            && pos.fullmove_number() >= d.min_move
            && moves_played >= d.moves as usize
            && scores[scores.len() - n..].iter().all(|&(_, s)| s.is_some_and(|s| s.abs() <= d.score_cp))
        {
            return Some((None, GameEnd::DrawAdjudication));
        }
    }
    if let Some(max) = rules.max_moves {
        if game.moves().len() >= 2 * max as usize {
            return Some((None, GameEnd::MaxMoves));
        }
    }
    None
}

fn finish(mut record: GameRecord, winner: Option<Color>, end: GameEnd) -> GameRecord {
    let win_text = |w: Option<Color>| match w {
        Some(c) => format!("{} wins", side_name(c)),
        None => "draw".to_string(),
    };
    record.reason = match &end {
        GameEnd::Rules(Termination::Checkmate) => format!("{} mates", side_name(winner.unwrap_or(Color::White))),
        GameEnd::Rules(Termination::Stalemate) => "draw by stalemate".into(),
        GameEnd::Rules(Termination::InsufficientMaterial) => "draw by insufficient mating material".into(),
        GameEnd::Rules(Termination::FiftyMoves | Termination::SeventyFiveMoves) => "draw by the fifty-move rule".into(),
        GameEnd::Rules(_) => "draw by repetition".into(),
        GameEnd::TimeForfeit(c) => format!("{} loses on time ({})", side_name(*c), win_text(winner)),
        GameEnd::IllegalMove { side, sent } => format!("{} makes an illegal move: {sent}", side_name(*side)),
        GameEnd::Crash { side, detail } => format!("{}'s engine failed: {detail}", side_name(*side)),
        GameEnd::ResignAdjudication => format!("{} by adjudication: both engines agree", win_text(winner)),
        GameEnd::DrawAdjudication => "draw by adjudication: both engines see a dead draw".into(),
        GameEnd::TablebaseAdjudication => format!("{} by tablebase adjudication", win_text(winner)),
        GameEnd::MaxMoves => "draw by adjudication: move limit".into(),
        GameEnd::Interrupted => "game interrupted".into(),
    };
    record.winner = winner;
    record.end = end;
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastion_core::Wdl;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1").unwrap(),
            TimeControl::Clock { base: Duration::from_secs(10), increment: Duration::from_millis(100), moves: None }
        );
        let tc = TimeControl::parse_clock("40/60+0.5").unwrap();
        assert_eq!(tc.pgn_tag(), "40/60+0.5");
        assert_eq!(TimeControl::parse_clock("8").unwrap().pgn_tag(), "8");
        for bad in ["", "x", "0+1", "10+y", "0/10", "-5", "1e300"] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
        assert_eq!(TimeControl::Nodes(5000).pgn_tag(), "-");
    }

    #[test]
    fn parses_engine_specs() {
        let w = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let c = EngineConfig::parse(&w("name=A cmd=/bin/sf option.Hash=64 option.Threads=2")).unwrap();
        assert_eq!(c.name, "A");
        assert_eq!(c.options, vec![("Hash".into(), "64".into()), ("Threads".into(), "2".into())]);
        assert_eq!(EngineConfig::parse(&w("cmd=x")).unwrap().name, "x");
        assert!(EngineConfig::parse(&w("name=A")).is_err());
        assert!(EngineConfig::parse(&w("cmd=x foo=1")).is_err());
        assert!(EngineConfig::parse(&w("cmd=x option.=1")).is_err());
        assert!(EngineConfig::parse(&w("cmd")).is_err());
    }

    #[test]
    fn pgn_dates() {
        let t = std::time::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(pgn_date(t), "2023.11.14");
        assert_eq!(pgn_date(std::time::UNIX_EPOCH), "1970.01.01");
        assert_eq!(pgn_date(std::time::UNIX_EPOCH + Duration::from_secs(951_782_400)), "2000.02.29");
    }

    fn game_from(fen: &str, sans: &[&str]) -> Game {
        let mut g = Game::new(Position::from_fen(fen).unwrap());
        for s in sans {
            let m = g.position().parse_san(s).unwrap();
            g.make(m);
        }
        g
    }

    #[test]
    fn resign_and_draw_adjudication_need_both_engines() {
        let g = game_from(bastion_core::fen::STARTPOS, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        let rules = Adjudication {
            resign: Some(ResignRule { moves: 2, score_cp: 500 }),
            draw: Some(DrawRule { min_move: 3, moves: 2, score_cp: 10 }),
            ..Adjudication::default()
        };
        let w = Color::White;
        let b = Color::Black;
        // White thinks it wins but Black disagrees once: no adjudication.
        let s = [(w, Some(600)), (b, Some(700)), (w, Some(650)), (b, Some(100))];
        assert_eq!(adjudicate(&g, &s, 0, &rules), None);
        let s = [(w, Some(0)), (w, Some(600)), (b, Some(700)), (w, Some(650)), (b, Some(800))];
        assert_eq!(adjudicate(&g, &s, 0, &rules), Some((Some(w), GameEnd::ResignAdjudication)));
        let s = [(w, Some(-900)), (b, Some(-100_000)), (w, Some(-650)), (b, Some(-800))];
        assert_eq!(adjudicate(&g, &s, 0, &rules), Some((Some(b), GameEnd::ResignAdjudication)));
        // Dead draw: four quiet scores, move 4 >= min_move 3.
        let s = [(w, Some(5)), (b, Some(-3)), (w, Some(0)), (b, Some(10))];
        assert_eq!(adjudicate(&g, &s, 0, &rules), Some((None, GameEnd::DrawAdjudication)));
        // A missing score breaks the streak.
        let s = [(w, Some(5)), (b, None), (w, Some(0)), (b, Some(10))];
        assert_eq!(adjudicate(&g, &s, 0, &rules), None);
        // Too early in the game.
        let early =
            Adjudication { draw: Some(DrawRule { min_move: 40, moves: 2, score_cp: 10 }), ..Adjudication::default() };
        let s = [(w, Some(5)), (b, Some(-3)), (w, Some(0)), (b, Some(10))];
        assert_eq!(adjudicate(&g, &s, 0, &early), None);
        let capped = Adjudication { max_moves: Some(3), ..Adjudication::default() };
        assert_eq!(adjudicate(&g, &[], 0, &capped), Some((None, GameEnd::MaxMoves)));
    }

    struct KnowsKpk;
    impl TablebaseProbe for KnowsKpk {
        fn max_pieces(&self) -> u32 {
            3
        }
        fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
            // A stand-in that "knows" one position.
            (pos.epd() == "4k3/8/4K3/4P3/8/8/8/8 w - -").then_some(Wdl::Win)
        }
    }

    /// Says every position is a cursed win for the side to move.
    struct AllCursed;
    impl TablebaseProbe for AllCursed {
        fn max_pieces(&self) -> u32 {
            3
        }
        fn probe_wdl(&self, _pos: &Position) -> Option<Wdl> {
            Some(Wdl::CursedWin)
        }
    }

    #[test]
    fn tablebase_hook_adjudicates() {
        let cursed = Adjudication { tablebase: Some(Arc::new(AllCursed)), ..Adjudication::default() };
        let g = game_from("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", &[]);
        assert_eq!(adjudicate(&g, &[], 0, &cursed), Some((None, GameEnd::TablebaseAdjudication)));
        let rules = Adjudication { tablebase: Some(Arc::new(KnowsKpk)), ..Adjudication::default() };
        let g = game_from("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", &[]);
        assert_eq!(adjudicate(&g, &[], 0, &rules), Some((Some(Color::White), GameEnd::TablebaseAdjudication)));
        let g = game_from("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", &[]);
        assert_eq!(adjudicate(&g, &[], 0, &rules), None);
        let g = game_from("4k3/8/4K3/4P3/8/8/8/7R w - - 0 1", &[]);
        assert_eq!(adjudicate(&g, &[], 0, &rules), None, "4 pieces: beyond the table");
    }
}
