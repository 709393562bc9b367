//! A scripted stand-in UCI engine for `bastion-uci`'s integration tests.
//!
//! It plays no chess: it answers the protocol with canned output, and its
//! `--mode` selects a misbehaviour so the client's timeout and crash paths
//! can be tested without a real engine:
//!
//! * `normal` (default): well-behaved; `go` prints one `info` per depth
//!   (default 3), some garbage, then `bestmove`; `go infinite` prints infos
//!   until `stop`.
//! * `crash-on-uci`: exits with status 2 on `uci`.
//! * `silent`: never answers `uci`.
//! * `crash-on-go`: prints one `info` on `go`, then exits with status 3.
//! * `hang-on-go`: stops responding on `go`.
//! * `slow-go`: sleeps `--delay-ms` on `go` before answering, ignoring `stop`.
//! * `spam`: floods `info` lines on `go` and never sends `bestmove`.
//! * `ignore-quit`: normal, but ignores `quit`.
//!
//! Every search's `bestmove` is taken in turn from a fixed list, so tests can
//! tell which `go` a `bestmove` answers.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::process::exit;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// Best moves of successive searches, cycled.
const BEST_MOVES: [(&str, &str); 4] = [("e2e4", "e7e5"), ("d2d4", "d7d5"), ("c2c4", "c7c5"), ("g1f3", "g8f6")];

struct Fake {
    mode: String,
    delay: Duration,
    position: String,
    options: BTreeMap<String, String>,
    searches: usize,
    input: Receiver<String>,
}

fn say(line: &str) {
    let mut out = io::stdout().lock();
    // The client may already be gone; nothing useful to do about it.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn arg_value(args: &[String], key: &str) -> Option<String> {
    args.iter().position(|a| a == key).and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = arg_value(&args, "--mode").unwrap_or_else(|| "normal".to_owned());
    let delay =
        arg_value(&args, "--delay-ms").and_then(|v| v.parse().ok()).map_or(Duration::ZERO, Duration::from_millis);
    eprintln!("fake_uci_engine starting in mode {mode}");

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

    let mut fake = Fake { mode, delay, position: "startpos".to_owned(), options: BTreeMap::new(), searches: 0, input };
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
            "position" => self.position = rest.to_owned(),
            "ucinewgame" => {
                self.options.insert("newgame".into(), "yes".into());
            }
            "go" => self.go(rest),
            "stop" | "" => {}
            "quit" if self.mode != "ignore-quit" => exit(0),
            "quit" => {}
            _ => say(&format!("info string unknown command {line}")),
        }
    }

    fn uci(&self) {
        match self.mode.as_str() {
            "crash-on-uci" => exit(2),
            "silent" => return,
            _ => {}
        }
        say("Fake Engine by the Bastion tests (banner line that is not UCI)");
        say("id name Fake Engine 1.0");
        say("id author Bastion Tests");
        say("option name Hash type spin default 16 min 1 max 33554432");
        say("option name Threads type spin default 1 min 1 max 1024");
        say("option name Ponder type check default false");
        say("option name Style type combo default Normal var Very Solid var Normal var Risky");
        say("option name Clear Hash type button");
        say("option name SyzygyPath type string default <empty>");
        say("option name broken line without type");
        say("uciok");
    }

    fn go(&mut self, args: &str) {
        let (best, ponder) = BEST_MOVES[self.searches % BEST_MOVES.len()];
        self.searches += 1;
        match self.mode.as_str() {
            "crash-on-go" => {
                say("info depth 1 score cp 5 pv e2e4");
                exit(3);
            }
            "hang-on-go" => loop {
                thread::sleep(Duration::from_secs(1));
            },
            "spam" => {
                for n in 0u64.. {
                    say(&format!("info depth 1 nodes {n}"));
                }
            }
            "slow-go" => thread::sleep(self.delay),
            _ => {}
        }

        say(&format!("info string position {}", self.position));
        let options: Vec<String> = self.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        say(&format!("info string options {}", options.join(";")));
        say(&format!("info string go {args}"));

        let words: Vec<&str> = args.split_whitespace().collect();
        if words.contains(&"infinite") {
            self.infinite();
        } else {
            let depth = words
                .iter()
                .position(|&w| w == "depth")
                .and_then(|i| words.get(i + 1))
                .and_then(|d| d.parse().ok())
                .unwrap_or(3u32);
            for d in 1..=depth {
                say(&format!(
                    "info depth {d} seldepth {} multipv 1 score cp {} wdl 400 500 100 nodes {} nps 100000 \
                     hashfull {d} tbhits 0 time {d} pv {best} {ponder}",
                    d + 2,
                    10 * d,
                    1000 * d
                ));
            }
            say("info depth zz score cp nonsense pv ?? garbage");
            say("debug: this line is not UCI");
        }
        say(&format!("bestmove {best} ponder {ponder}"));
    }

    /// Prints an info line every few milliseconds until `stop`.
    fn infinite(&mut self) {
        let mut depth = 1;
        loop {
            match self.input.recv_timeout(Duration::from_millis(5)) {
                Ok(line) if line.trim() == "stop" => return,
                Ok(line) if line.trim() == "isready" => say("readyok"),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    say(&format!("info depth {depth} score mate {depth} pv e2e4"));
                    depth += 1;
                }
                Err(RecvTimeoutError::Disconnected) => exit(0),
            }
        }
    }
}
