//! Minimal perft driver for profiling the core alone:
//! `cargo run --release -p bastion-core --example perft -- [DEPTH] [bulk|full] [FEN]`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    let full = args.get(2).is_some_and(|m| m == "full");
    let pos = match args.get(3) {
        Some(fen) => bastion_core::Position::from_fen(fen).expect("valid FEN"),
        None => bastion_core::Position::startpos(),
    };
    let t = std::time::Instant::now();
    let n = if full { bastion_core::perft::perft_full(&pos, depth) } else { bastion_core::perft::perft(&pos, depth) };
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes in {s:.3} s ({:.1} M/s)", n as f64 / s / 1e6);
}
