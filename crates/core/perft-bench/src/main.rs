//! Perft speed against cozy-chess 0.3 (with its `pext` feature), single thread,
//! same build flags, measured in the same run. Prints nodes per second and the
//! ratio for the start position (depth 6) and Kiwipete (depth 5), with and
//! without bulk counting at the leaves.
//!
//! Run: `RUSTFLAGS="-C target-cpu=native" cargo run --release --manifest-path crates/core/perft-bench/Cargo.toml`
//! (add `--features pext` to index our slider tables with PEXT).

use std::time::Instant;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn cozy_perft(board: &cozy_chess::Board, depth: u8, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if bulk && depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += cozy_perft(&child, depth - 1, bulk);
        }
        false
    });
    nodes
}

fn best_of<F: FnMut() -> u64>(runs: usize, mut f: F) -> (u64, f64) {
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        nodes = std::hint::black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    (nodes, best)
}

fn main() {
    // `only=bastion` or `only=cozy` runs one side, for `perf stat` cycle counts.
    let only = std::env::args().nth(1).unwrap_or_default();
    let runs: usize = std::env::var("PERFT_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    println!(
        "perft benchmark, single thread, best of {runs} (slider tables: {})",
        if bastion_core::attacks::uses_pext() { "PEXT" } else { "magic" }
    );
    println!(
        "{:<10} {:>5} {:>6} {:>14} {:>12} {:>12} {:>7}",
        "position", "depth", "bulk", "nodes", "bastion M/s", "cozy M/s", "ratio"
    );
    for (name, fen, depth) in [("start", START, 6u32), ("kiwipete", KIWIPETE, 5u32)] {
        let ours = bastion_core::Position::from_fen(fen).unwrap();
        let cozy: cozy_chess::Board = fen.parse().unwrap();
        for bulk in [true, false] {
            // PERFT_BENCH_CASE=start-full (or kiwipete-bulk, …) limits the run to one case.
            if let Ok(case) = std::env::var("PERFT_BENCH_CASE") {
                if case != format!("{name}-{}", if bulk { "bulk" } else { "full" }) {
                    continue;
                }
            }
            let d = if bulk { depth } else { depth - 1 };
            let skip_ours = only == "only=cozy";
            let skip_cozy = only == "only=bastion";
            let (n1, t1) = best_of(if skip_ours { 0 } else { runs }, || {
                if bulk {
                    bastion_core::perft::perft(&ours, d)
                } else {
                    bastion_core::perft::perft_full(&ours, d)
                }
            });
            let (n2, t2) = best_of(if skip_cozy { 0 } else { runs }, || cozy_perft(&cozy, d as u8, bulk));
            if !skip_ours && !skip_cozy {
                assert_eq!(n1, n2, "node counts differ for {name}");
            }
            let (r1, r2) = (n1 as f64 / t1 / 1e6, n2 as f64 / t2 / 1e6);
            println!(
                "{name:<10} {d:>5} {:>6} {n1:>14} {r1:>12.1} {r2:>12.1} {:>7.2}",
                if bulk { "yes" } else { "no" },
                r1 / r2
            );
        }
    }
}
