//! Session 39 diagnostic: for each `fen,result,game,score` line on stdin, print
//! `nn,hce,result,score,pieces,game` (White's view, centipawns), skipping positions the
//! hand-written evaluation already owns and positions in check.
use bastion_core::{Color, Position};
use bastion_engine::eval::{evaluate, evaluate_by, prefers_hand_written, PawnCache};
use bastion_engine::nnue::Network;
use std::io::{BufRead, Write};

fn main() {
    let net = Network::builtin();
    let mut cache = PawnCache::new();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < 4 {
            continue;
        }
        let Ok(pos) = Position::from_fen(f[0]) else { continue };
        if pos.in_check() || prefers_hand_written(&pos) {
            continue;
        }
        let sign = if pos.side_to_move() == Color::White { 1 } else { -1 };
        let nn = sign * evaluate_by(&pos, Some(&net), &mut cache, 100, 0, |n| n.evaluate(&pos));
        let hce = sign * evaluate(&pos, &mut cache);
        writeln!(out, "{},{},{},{},{},{}", nn, hce, f[1], f[3], pos.occupied().count(), f[2]).unwrap();
    }
}
