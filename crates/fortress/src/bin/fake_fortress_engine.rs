//! A scripted UCI engine for deterministic tests of the fortress detector.
//!
//! `fake_fortress_engine SCENARIO` reads a scenario file and answers
//! `go depth D` with one exact `info` line per depth and MultiPV slot (plus a
//! bogus fail-low bound line per depth that the detector must ignore). Each
//! legal move's score, from the side to move's view, is
//! `base + slope * depth` centipawns, optionally alternating by `wobble`.
//!
//! Scenario lines (`#` comments):
//! ```text
//! default BASE SLOPE            every move not listed
//! wobble CP                     add +CP at even depths, -CP at odd ones
//! move PATH UCI BASE SLOPE      PATH: "-" for the root, else the moves
//!                               played from the root, comma-separated
//! mate PATH UCI DEPTH N         from DEPTH on, that move scores "mate N"
//! pathdefault PATH BASE SLOPE   every move not listed, at that PATH only
//! ```

use std::collections::HashMap;
use std::io::{BufRead, Write};

use bastion_core::Position;

#[derive(Default)]
struct Scenario {
    default: (i64, i64),
    wobble: i64,
    moves: HashMap<(String, String), (i64, i64)>,
    mates: HashMap<(String, String), (u32, i32)>,
    path_defaults: HashMap<String, (i64, i64)>,
}

fn parse(text: &str) -> Scenario {
    let mut s = Scenario::default();
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| w.get(i).and_then(|x| x.parse::<i64>().ok()).unwrap_or(0);
        match w.first().copied() {
            Some("default") => s.default = (num(1), num(2)),
            Some("wobble") => s.wobble = num(1),
            Some("move") if w.len() >= 5 => {
                s.moves.insert((w[1].to_owned(), w[2].to_owned()), (num(3), num(4)));
            }
            Some("pathdefault") if w.len() >= 4 => {
                s.path_defaults.insert(w[1].to_owned(), (num(2), num(3)));
            }
            Some("mate") if w.len() >= 5 => {
                s.mates.insert((w[1].to_owned(), w[2].to_owned()), (num(3) as u32, num(4) as i32));
            }
            _ => {}
        }
    }
    s
}

fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let scenario = parse(&std::fs::read_to_string(&path).unwrap_or_default());
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut multipv = 1usize;
    let mut root = Position::startpos();
    let mut played: Vec<String> = Vec::new();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("uci") => {
                let _ = writeln!(out, "id name FakeFortress\nid author tests");
                let _ = writeln!(out, "option name MultiPV type spin default 1 min 1 max 500\nuciok");
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("setoption") => {
                if let (Some(i), Some(v)) = (w.iter().position(|x| *x == "name"), w.iter().position(|x| *x == "value"))
                {
                    if w[i + 1..v].join(" ").eq_ignore_ascii_case("multipv") {
                        multipv = w.get(v + 1).and_then(|x| x.parse().ok()).unwrap_or(1);
                    }
                }
            }
            Some("position") => {
                let moves_at = w.iter().position(|x| *x == "moves").unwrap_or(w.len());
                root = if w.get(1) == Some(&"fen") {
                    Position::from_fen(&w[2..moves_at].join(" ")).unwrap_or_default()
                } else {
                    Position::startpos()
                };
                played = w.iter().skip(moves_at + 1).map(|s| s.to_string()).collect();
            }
            Some("go") => {
                let depth: u32 = w
                    .iter()
                    .position(|x| *x == "depth")
                    .and_then(|i| w.get(i + 1))
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(5);
                search(&mut out, &scenario, &root, &played, depth, multipv);
            }
            Some("quit") => break,
            _ => {}
        }
        let _ = out.flush();
    }
}

fn search(out: &mut impl Write, s: &Scenario, root: &Position, played: &[String], depth: u32, multipv: usize) {
    let mut pos = root.clone();
    for m in played {
        match pos.parse_uci(m) {
            Ok(mv) => pos = pos.play(mv),
            Err(_) => break,
        }
    }
    let path = if played.is_empty() { "-".to_owned() } else { played.join(",") };
    let moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.to_uci(m)).collect();
    let mut best = None;
    for d in 1..=depth {
        let wob = if d % 2 == 0 { s.wobble } else { -s.wobble };
        // (sort key, score text) per move; mates sort above everything.
        let mut scored: Vec<(i64, String, &String)> = moves
            .iter()
            .map(|m| {
                let key = (path.clone(), m.clone());
                if let Some(&(from, n)) = s.mates.get(&key) {
                    if d >= from {
                        let k = if n > 0 { 1_000_000 - i64::from(n) } else { -1_000_000 - i64::from(n) };
                        return (k, format!("mate {n}"), m);
                    }
                }
                let fallback = s.path_defaults.get(&path).copied().unwrap_or(s.default);
                let (base, slope) = s.moves.get(&key).copied().unwrap_or(fallback);
                let cp = base + slope * i64::from(d) + wob;
                (cp, format!("cp {cp}"), m)
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.2.cmp(b.2)));
        let _ = writeln!(
            out,
            "info depth {d} multipv 1 score cp -31999 upperbound nodes 1 pv {}",
            scored.first().map_or("0000", |x| x.2)
        );
        for (i, (_, text, m)) in scored.iter().take(multipv).enumerate() {
            let _ = writeln!(
                out,
                "info depth {d} seldepth {d} multipv {} score {text} nodes {} time {} pv {m}",
                i + 1,
                d * 100,
                d * 3
            );
        }
        best = scored.first().map(|x| x.2.clone());
    }
    let _ = writeln!(out, "bestmove {}", best.unwrap_or_else(|| "0000".into()));
}
