//! Session 45 diagnostic: for each `fen,result,...` line on stdin, print the result and each
//! network's raw score in centipawns from White's view (`<internal>` is the built-in network).
//!
//! ```text
//! cargo run --release -p bastion-engine --example neteval45 -- '<internal>' F45.nnue < sfpos45.csv
//! ```
use bastion_core::{Color, Position};
use bastion_engine::nnue::Network;
use std::io::{BufRead, Write};

fn main() {
    let nets: Vec<_> = std::env::args().skip(1).map(|n| Network::by_name(&n).expect("network")).collect();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let mut f = line.split(',');
        let (Some(fen), Some(result)) = (f.next(), f.next()) else { continue };
        let Ok(pos) = Position::from_fen(fen) else { continue };
        let sign = if pos.side_to_move() == Color::White { 1 } else { -1 };
        let scores: Vec<String> = nets.iter().map(|n| (sign * n.evaluate(&pos)).to_string()).collect();
        writeln!(out, "{result},{}", scores.join(",")).expect("stdout");
    }
}
