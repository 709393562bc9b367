//! A tiny UCI engine for the arena's tests: it plays legal chess badly and
//! misbehaves on request, so the referee can be tested without real engines.
//!
//! Options (command-line flags):
//! * `--mode random|first|greedy`: random legal move (seeded), the first
//!   legal move, or "mate if possible, else capture the most valuable piece,
//!   else random" (a clearly stronger player than `random`);
//! * `--seed N`: seed of the random choices (default 1); `ucinewgame`
//!   does not reset it, so games differ;
//! * `--score CP`: the score it reports for every move, from its own side
//!   (default: material balance in centipawns);
//! * `--crash-after N`: exits with status 3 on the N+1-th `go`;
//! * `--illegal-after N`: answers the N+1-th `go` with an illegal move;
//! * `--hang-after N`: never answers the N+1-th `go`;
//! * `--sleep-ms N`: waits this long before every `bestmove`;
//! * `--think-ms N`: first reports a different move in its PV, then after
//!   N ms the move it will play (to test time-to-solution measurement);
//! * `--name NAME`: the `id name` it sends.

use bastion_core::{Color, Move, Position, Role};
use std::io::{self, BufRead, Write};

struct Config {
    mode: String,
    seed: u64,
    score: Option<i32>,
    crash_after: Option<u64>,
    illegal_after: Option<u64>,
    hang_after: Option<u64>,
    sleep_ms: u64,
    think_ms: u64,
    name: String,
}

fn arg<T: std::str::FromStr>(args: &[String], key: &str) -> Option<T> {
    args.iter().position(|a| a == key).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok())
}

fn say(line: &str) {
    let mut out = io::stdout().lock();
    // The referee may be gone already; nothing useful to do about it.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cfg = Config {
        mode: arg(&args, "--mode").unwrap_or_else(|| "random".into()),
        seed: arg(&args, "--seed").unwrap_or(1),
        score: arg(&args, "--score"),
        crash_after: arg(&args, "--crash-after"),
        illegal_after: arg(&args, "--illegal-after"),
        hang_after: arg(&args, "--hang-after"),
        sleep_ms: arg(&args, "--sleep-ms").unwrap_or(0),
        think_ms: arg(&args, "--think-ms").unwrap_or(0),
        name: arg(&args, "--name").unwrap_or_else(|| "Arena Test Engine".into()),
    };
    let mut rng = cfg.seed.max(1);
    let mut pos = Position::startpos();
    let mut searches = 0u64;
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "uci" => {
                say(&format!("id name {}", cfg.name));
                say("id author Bastion tests");
                say("option name Hash type spin default 16 min 1 max 1024");
                say("uciok");
            }
            "isready" => say("readyok"),
            "position" => match parse_position(rest) {
                Some(p) => pos = p,
                None => say("info string bad position command"),
            },
            "go" => {
                let n = searches;
                searches += 1;
                if cfg.crash_after == Some(n) {
                    std::process::exit(3);
                }
                if cfg.hang_after == Some(n) {
                    loop {
                        std::thread::sleep(std::time::Duration::from_secs(60));
                    }
                }
                if cfg.sleep_ms > 0 {
                    std::thread::sleep(std::time::Duration::from_millis(cfg.sleep_ms));
                }
                if cfg.illegal_after == Some(n) {
                    say("bestmove a1a1");
                    continue;
                }
                let Some(m) = choose(&cfg, &pos, &mut rng) else {
                    say("bestmove (none)");
                    continue;
                };
                let after = pos.play(m);
                let score = match cfg.score {
                    Some(s) => format!("cp {s}"),
                    None if after.is_checkmate() => "mate 1".to_string(),
                    None => format!("cp {}", material(&after, pos.side_to_move())),
                };
                let uci = pos.to_uci(m);
                if cfg.think_ms > 0 {
                    let moves = pos.legal_moves();
                    if let Some(&other) = moves.iter().find(|&&o| o != m) {
                        say(&format!("info depth 1 score cp 0 nodes 1 pv {}", pos.to_uci(other)));
                    }
                    std::thread::sleep(std::time::Duration::from_millis(cfg.think_ms));
                }
                say(&format!("info depth 2 score {score} nodes 2 time 0 pv {uci}"));
                say(&format!("bestmove {uci}"));
            }
            "quit" => break,
            _ => {} // ucinewgame, setoption, stop: nothing to do
        }
    }
}

fn parse_position(rest: &str) -> Option<Position> {
    let (base, moves) = match rest.split_once(" moves ") {
        Some((b, m)) => (b.trim(), m),
        None => (rest.trim().trim_end_matches(" moves"), ""),
    };
    let mut pos = match base {
        "startpos" => Position::startpos(),
        other => Position::from_fen(other.strip_prefix("fen ")?).ok()?,
    };
    for m in moves.split_whitespace() {
        let mv = pos.parse_uci(m).ok()?;
        pos = pos.play(mv);
    }
    Some(pos)
}

fn next(rng: &mut u64) -> u64 {
    // xorshift64: tiny and good enough for choosing moves.
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    *rng
}

fn choose(cfg: &Config, pos: &Position, rng: &mut u64) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    match cfg.mode.as_str() {
        "first" => Some(moves[0]),
        "greedy" => {
            if let Some(&m) = moves.iter().find(|&&m| pos.play(m).is_checkmate()) {
                return Some(m);
            }
            let best = moves
                .iter()
                .filter_map(|&m| pos.role_at(m.to()).filter(|_| !m.is_castling()).map(|r| (r.value(), m)))
                .max_by_key(|&(v, _)| v);
            match best {
                Some((_, m)) => Some(m),
                None => Some(moves[(next(rng) % moves.len() as u64) as usize]),
            }
        }
        _ => Some(moves[(next(rng) % moves.len() as u64) as usize]),
    }
}

/// Material balance for `side`, in centipawns.
fn material(pos: &Position, side: Color) -> i32 {
    let mut total = 0;
    for role in Role::ALL {
        if role == Role::King {
            continue;
        }
        let diff = pos.count(side, role) as i32 - pos.count(!side, role) as i32;
        total += diff * role.value();
    }
    total
}
