//! Reads `FEN<TAB>UCI move` lines and prints, for each, the tablebase result for the side to
//! move before the move and after it (from the mover's view): `W`, `D`, `L` or `-` (no table).
use bastion_core::Position;
use bastion_tablebase::{Dtm, Tablebases};
use std::io::BufRead;

fn wdl(d: Option<Dtm>, flip: bool) -> char {
    match (d, flip) {
        (None, _) => '-',
        (Some(Dtm::Draw), _) => 'D',
        (Some(Dtm::Win(_)), false) | (Some(Dtm::Loss(_)), true) => 'W',
        _ => 'L',
    }
}

fn main() {
    let dir = std::env::args().nth(1).expect("table dir");
    let tb = Tablebases::open(&[dir]).expect("tables");
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let mut it = line.split('\t');
        let (fen, mv) = (it.next().unwrap(), it.next().unwrap());
        let pos = Position::from_fen(fen).expect("fen");
        let m = pos.parse_uci(mv).expect("move");
        let child = pos.play(m);
        let before = if pos.castling().is_empty() { tb.probe_dtm(&pos) } else { None };
        let after = if child.castling().is_empty() { tb.probe_dtm(&child) } else { None };
        println!("{}\t{}", wdl(before, false), wdl(after, true));
    }
}
