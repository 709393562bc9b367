//! Canned answers to `go`: no chess, just protocol traffic a client must parse.

use std::process::exit;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use crate::{say, Fake};

/// Best moves and ponder moves of successive searches, cycled.
const BEST_MOVES: [(&str, &str); 4] = [("e2e4", "e7e5"), ("d2d4", "d7d5"), ("c2c4", "c7c5"), ("g1f3", "g8f6")];

/// Answers search number `n` (from 0), started by `go {args}`.
pub(crate) fn go(fake: &Fake, n: u64, args: &str, depth: Option<u32>) {
    let (best, ponder) = BEST_MOVES[(n % BEST_MOVES.len() as u64) as usize];
    say(&format!("info string position {}", fake.position_text));
    let options: Vec<String> = fake.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    say(&format!("info string options {}", options.join(";")));
    say(&format!("info string go {args}"));

    if args.split_whitespace().any(|w| w == "infinite") {
        infinite(fake);
    } else {
        for d in 1..=depth.unwrap_or(3) {
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
fn infinite(fake: &Fake) {
    let mut depth = 1;
    loop {
        match fake.input.recv_timeout(Duration::from_millis(5)) {
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
