//! Session 40 diagnostic: rewrite the search scores of `fen,result,game,score` self-play
//! lines (stdin) so that a network fine-tuned on them learns what the hand-written
//! evaluation knows and the built-in network misses.
//!
//! The new score (White's view, centipawns) is `score + p·(hce − nn)`, with `nn` the
//! built-in network's raw output and `hce` the hand-written evaluation: the search's own
//! correction to the static score is kept, and the static part moves `p` of the way to the
//! hand-written one (session 39 fitted `p` = 0.30 on game results). Positions in check and
//! those the hand-written evaluation already owns keep their score, as do mate
//! labels. Lines without a score are dropped.
//!
//! ```text
//! cargo run --release -p bastion-engine --example distill40 -- [PCT] < sp.csv > distilled.csv
//! ```
use bastion_core::{Color, Position};
use bastion_engine::eval::{evaluate, prefers_hand_written, PawnCache};
use bastion_engine::nnue::train::LABEL_CP_MAX;
use bastion_engine::nnue::Network;
use std::io::{BufRead, Write};

fn main() {
    let pct: i32 = std::env::args().nth(1).map_or(30, |a| a.parse().expect("PCT must be an integer"));
    let net = Network::builtin();
    let mut cache = PawnCache::new();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin is readable text");
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < 4 {
            continue;
        }
        let (Ok(pos), Ok(score)) = (Position::from_fen(f[0]), f[3].parse::<i32>()) else { continue };
        let mut label = score;
        if !pos.in_check() && !prefers_hand_written(&pos) && score.abs() < LABEL_CP_MAX {
            let sign = if pos.side_to_move() == Color::White { 1 } else { -1 };
            let delta = evaluate(&pos, &mut cache) - net.evaluate(&pos);
            label += sign * delta * pct / 100;
        }
        writeln!(out, "{},{},{},{}", f[0], f[1], f[2], label).expect("stdout is writable");
    }
}
