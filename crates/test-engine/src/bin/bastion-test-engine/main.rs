//! `bastion-test-engine`: a fake UCI engine for Bastion's tests. It stands in for
//! a real engine wherever a test needs exact, repeatable answers or a
//! misbehaving engine: the UCI client's crash and timeout paths, the arena's
//! referee, the fortress detector's verdicts.
//!
//! How `go` picks its answer:
//! * `--play canned` (default): plays no chess. `go` prints `info string`
//!   lines echoing the position, the options set and the `go` arguments, one
//!   `info` per depth (`go depth N`, default 3), a garbage `info` line and a
//!   non-UCI line, then `bestmove`; `go infinite` prints infos until `stop`.
//!   Successive searches answer e2e4, d2d4, c2c4, g1f3 in turn (with their
//!   ponder moves), so a test can tell which `go` a `bestmove` answers.
//! * `--play random|first|greedy`: plays legal chess: a random legal move
//!   (seeded by `--seed N`, default 1, not reset by `ucinewgame`), the first
//!   legal move, or "mate if possible, else capture the most valuable piece,
//!   else random" (clearly stronger than `random`). It reports the material
//!   balance as its score unless `--score CP` fixes one; `--think-ms N` first
//!   reports a different move in its PV, then after N ms the move it plays.
//!   `random` plays the greedy move instead in `Greed` per cent of its moves (a UCI spin
//!   option, 0 by default), so that a tuner has an option worth raising.
//! * `--scenario FILE`: scores every legal move by a formula read from FILE
//!   (see `scenario.rs`) and answers `go depth D` with one `info` per depth and
//!   MultiPV slot, after a bogus fail-low bound line the client must ignore.
//!
//! Misbehaviour, for any of them:
//! * `--mode crash-on-uci`: exits with status 2 on `uci`; `--mode silent`:
//!   never answers `uci`; `--mode spam`: floods `info` lines on `go` and never
//!   sends `bestmove`; `--mode ignore-quit`: ignores `quit`.
//! * `--crash-after N`: on the N+1-th `go`, prints one `info` and exits with status 3;
//! * `--hang-after N`: never answers the N+1-th `go`;
//! * `--illegal-after N`: answers the N+1-th `go` with an illegal move;
//! * `--sleep-ms N`: waits this long at every `go` before answering (a `stop`
//!   meanwhile is not seen).
//!
//! `--name NAME` sets the `id name` it sends. Unknown flags are an error (exit 64).

mod canned;
mod config;
mod player;
mod scenario;

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::process::exit;
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use bastion_core::Position;

use config::{Config, Mode, Play};

/// Writes one line to stdout and flushes it.
pub(crate) fn say(line: &str) {
    let mut out = io::stdout().lock();
    // The client may already be gone; nothing useful to do about it.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The engine's state between commands.
pub(crate) struct Fake {
    config: Config,
    /// The argument of the last `position` command, echoed by canned searches.
    position_text: String,
    /// The last `position` command that parsed: its root and the moves played.
    root: Position,
    played: Vec<String>,
    options: BTreeMap<String, String>,
    searches: u64,
    rng: bastion_core::rng::Rng,
    input: Receiver<String>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = Config::parse(&args).unwrap_or_else(|e| {
        eprintln!("bastion-test-engine: {e}");
        exit(64);
    });
    eprintln!("bastion-test-engine starting in mode {}", config.mode.name());

    // Read stdin on a thread so an infinite search can poll for `stop`.
    let (tx, input) = mpsc::channel();
    thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });

    let rng = bastion_core::rng::Rng::new(config.seed);
    let mut fake = Fake {
        config,
        position_text: "startpos".to_owned(),
        root: Position::startpos(),
        played: Vec::new(),
        options: BTreeMap::new(),
        searches: 0,
        rng,
        input,
    };
    while let Ok(line) = fake.input.recv() {
        fake.command(line.trim());
    }
}

impl Fake {
    fn command(&mut self, line: &str) {
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "uci" => self.uci(),
            "isready" => say("readyok"),
            "setoption" => {
                let rest = rest.trim_start_matches("name ").trim();
                let (name, value) = rest.split_once(" value ").unwrap_or((rest, "<pressed>"));
                self.options.insert(name.to_owned(), value.to_owned());
            }
            "position" => self.position(rest),
            "ucinewgame" => {
                self.options.insert("newgame".into(), "yes".into());
            }
            "go" => self.go(rest),
            "stop" | "" => {}
            "quit" if self.config.mode != Mode::IgnoreQuit => exit(0),
            "quit" => {}
            _ => say(&format!("info string unknown command {line}")),
        }
    }

    fn uci(&self) {
        match self.config.mode {
            Mode::CrashOnUci => exit(2),
            Mode::Silent => return,
            _ => {}
        }
        say("Fake Engine by the Bastion tests (banner line that is not UCI)");
        say(&format!("id name {}", self.config.name));
        say("id author Bastion Tests");
        say("option name Hash type spin default 16 min 1 max 33554432");
        say("option name Threads type spin default 1 min 1 max 1024");
        say("option name MultiPV type spin default 1 min 1 max 500");
        say("option name Ponder type check default false");
        say("option name Greed type spin default 0 min 0 max 100");
        say("option name Style type combo default Normal var Very Solid var Normal var Risky");
        say("option name Clear Hash type button");
        say("option name SyzygyPath type string default <empty>");
        say("option name broken line without type");
        say("uciok");
    }

    fn position(&mut self, rest: &str) {
        self.position_text = rest.to_owned();
        match parse_position(rest) {
            Some((root, played)) => (self.root, self.played) = (root, played),
            // Only a chess-playing engine cares; canned answers just echo the text.
            None if !matches!(self.config.play, Play::Canned) => say("info string bad position command"),
            None => {}
        }
    }

    /// The position after the moves of the last `position` command.
    pub(crate) fn current(&self) -> Position {
        let mut pos = self.root.clone();
        for m in &self.played {
            match pos.parse_uci(m) {
                Ok(mv) => pos = pos.play(mv),
                Err(_) => break,
            }
        }
        pos
    }

    /// The value of option `name` as last set, if it was.
    pub(crate) fn option(&self, name: &str) -> Option<&str> {
        self.options.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    fn go(&mut self, args: &str) {
        let n = self.searches;
        self.searches += 1;
        if self.config.crash_after == Some(n) {
            say("info depth 1 score cp 5 pv e2e4");
            exit(3);
        }
        if self.config.hang_after == Some(n) {
            loop {
                thread::sleep(Duration::from_secs(60));
            }
        }
        if self.config.mode == Mode::Spam {
            for n in 0u64.. {
                say(&format!("info depth 1 nodes {n}"));
            }
        }
        if self.config.sleep_ms > 0 {
            thread::sleep(Duration::from_millis(self.config.sleep_ms));
        }
        if self.config.illegal_after == Some(n) {
            say("bestmove a1a1");
            return;
        }
        let words: Vec<&str> = args.split_whitespace().collect();
        let depth =
            words.iter().position(|&w| w == "depth").and_then(|i| words.get(i + 1)).and_then(|d| d.parse().ok());
        match &self.config.play {
            Play::Canned => canned::go(self, n, args, depth),
            Play::Scenario(scenario) => scenario.go(&self.current(), &self.played, depth.unwrap_or(5), self.multipv()),
            Play::Random | Play::First | Play::Greedy => player::go(self),
        }
    }

    fn multipv(&self) -> usize {
        self.option("MultiPV").and_then(|v| v.parse().ok()).unwrap_or(1)
    }
}

/// Splits a `position` argument into its root and the moves played from it;
/// `None` when the root is not `startpos` or a valid FEN, or a move is illegal.
fn parse_position(rest: &str) -> Option<(Position, Vec<String>)> {
    let (base, moves) = match rest.split_once(" moves ") {
        Some((b, m)) => (b.trim(), m),
        None => (rest.trim().trim_end_matches(" moves"), ""),
    };
    let root = match base {
        "startpos" => Position::startpos(),
        other => Position::from_fen(other.strip_prefix("fen ")?).ok()?,
    };
    let played: Vec<String> = moves.split_whitespace().map(str::to_owned).collect();
    let mut pos = root.clone();
    for m in &played {
        pos = pos.play(pos.parse_uci(m).ok()?);
    }
    Some((root, played))
}
