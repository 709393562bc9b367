//! Scenario scores for deterministic tests of the fortress detector.
//!
//! Each legal move's score, from the side to move's view, is
//! `base + slope * depth` centipawns, optionally alternating by `wobble`.
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

use bastion_core::Position;

use crate::say;

/// A parsed scenario file.
#[derive(Default)]
pub(crate) struct Scenario {
    default: (i64, i64),
    wobble: i64,
    moves: HashMap<(String, String), (i64, i64)>,
    mates: HashMap<(String, String), (u32, i32)>,
    path_defaults: HashMap<String, (i64, i64)>,
}

impl Scenario {
    /// Reads a scenario; lines it does not understand are skipped.
    pub(crate) fn parse(text: &str) -> Scenario {
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

    /// Answers `go depth {depth}` in `pos`, reached by `played` from the root,
    /// with `multipv` lines per depth.
    pub(crate) fn go(&self, pos: &Position, played: &[String], depth: u32, multipv: usize) {
        let path = if played.is_empty() { "-".to_owned() } else { played.join(",") };
        let moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.to_uci(m)).collect();
        let mut best = None;
        for d in 1..=depth {
            let wob = if d % 2 == 0 { self.wobble } else { -self.wobble };
            // (sort key, score text, move) per move; mates sort above everything.
            let mut scored: Vec<(i64, String, &String)> = moves
                .iter()
                .map(|m| {
                    let key = (path.clone(), m.clone());
                    if let Some(&(from, n)) = self.mates.get(&key) {
                        if d >= from {
                            let k = if n > 0 { 1_000_000 - i64::from(n) } else { -1_000_000 - i64::from(n) };
                            return (k, format!("mate {n}"), m);
                        }
                    }
                    let fallback = self.path_defaults.get(&path).copied().unwrap_or(self.default);
                    let (base, slope) = self.moves.get(&key).copied().unwrap_or(fallback);
                    let cp = base + slope * i64::from(d) + wob;
                    (cp, format!("cp {cp}"), m)
                })
                .collect();
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.2.cmp(b.2)));
            say(&format!(
                "info depth {d} multipv 1 score cp -31999 upperbound nodes 1 pv {}",
                scored.first().map_or("0000", |x| x.2)
            ));
            for (i, (_, text, m)) in scored.iter().take(multipv).enumerate() {
                say(&format!(
                    "info depth {d} seldepth {d} multipv {} score {text} nodes {} time {} pv {m}",
                    i + 1,
                    d * 100,
                    d * 3
                ));
            }
            best = scored.first().map(|x| x.2.clone());
        }
        say(&format!("bestmove {}", best.unwrap_or_else(|| "0000".into())));
    }
}
