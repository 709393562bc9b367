//! `bench`: a fixed set of positions searched to a fixed depth with a cleared
//! hash and one thread. The total node count is a deterministic signature of
//! the search (any functional change alters it); nps measures speed.

use crate::nnue::Network;
use crate::options::EngineOptions;
use crate::search::{Engine, Limits};
use bastion_core::Position;
use std::sync::Arc;
use std::time::Instant;

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 11;

/// The bench positions: openings, WAC/BK/Kaufman middlegames, endgames.
pub const POSITIONS: &[&str] = &[
    "rn1qkb1r/pbp2ppp/1p2p3/3n4/3P4/P1N2N2/1P2PPPP/R1BQKB1R w KQkq - 0 7",
    "rnbqkbnr/ppp1p1p1/3p4/7p/2PP1p2/5P2/PP2P1PP/RNBQKBNR b KQkq - 1 5",
    "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
    "rnb1kbnr/pp2pppp/1q1p4/8/3pP3/2P5/PP1N1PPP/RNBQKB1R b KQkq - 0 5",
    "rnbqkr2/pppp1ppp/7n/4p3/1b6/N1PP4/PP1BPPPP/1R1QKBNR b Kq - 2 5",
    "rnbqk2r/ppp2ppp/5n2/3p4/1b1P4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 0 6",
    "rn1qkb1r/pbpp1ppp/1p2pn2/8/2PP4/1P3NP1/P3PP1P/RNBQKB1R w KQkq - 1 6",
    "rnbqkb1r/1p3ppp/p2ppn2/6B1/3NP3/2N5/PPP2PPP/R2QKB1R w KQkq - 0 7",
    "r1bqkb1r/pp1n1ppp/2p1pn2/3p4/2PP4/2N1PN2/PPQ2PPP/R1B1KB1R b KQkq - 2 6",
    "rnbqkbr1/ppppp1pp/8/5p1Q/2P1n3/4P3/PP1P1PPP/RNB1KBNR b KQq - 1 5",
    "rnbqkb1r/1p1np1pp/8/p1pp1pB1/2P4P/1Q1P1P2/PP2P1P1/RN2KBNR w KQkq - 0 7",
    "rn1qk2r/pbpp1ppp/1p2pn2/6B1/1bPP4/2N2N2/PP2PPPP/R2QKB1R w KQkq - 2 6",
    "rn2kbnr/p1pp1ppp/bp3q2/4p3/4P1Q1/P5PB/1PPP1P1P/RNB1K1NR w KQkq - 3 6",
    "rnbqkb1r/1pp1pp1p/p4np1/3P4/5P2/4PN2/PP1P2PP/RNBQKB1R b KQkq - 0 5",
    "rnbq1rk1/ppp1bppp/4pn2/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 0 6",
    "rn1qk2r/pbpp1ppp/1p2pn2/8/1bPP4/5NP1/PP2PPBP/RNBQK2R w KQkq - 3 6",
    "rn1qk1nr/1bpp1ppp/3b4/p3p3/1p2P2N/3P4/PPP1BPPP/RNBQK1R1 w Qkq - 2 7",
    "rnbq1rk1/ppp1bppp/4pn2/3p4/2PP1B2/2N2N2/PP2PPPP/R2QKB1R w KQ - 2 6",
    "rnbq1b1r/pp2kppp/2p1pn2/3p4/3PP3/8/PPPK1PPP/RNBQ1BNR w - - 0 6",
    "rnbqkb1r/1ppp1p1p/p3pn2/6p1/2PP4/N7/PP1QPPPP/R1B1KBNR w KQkq - 0 5",
    "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
    "3R1rk1/8/5Qpp/2p5/2P1p1q1/P3P3/1P2PK2/8 b - - 0 1",
    "7k/2p1b1pp/8/1p2P3/1P3r2/2P3Q1/1P5P/R4qBK b - - 0 1",
    "1r1r1qk1/p2n1p1p/bp1Pn1pQ/2pNp3/2P2P1N/1P5B/P6P/3R1RK1 w - - 0 1",
    "kr2R3/p4r2/2pq4/2N2p1p/3P2p1/Q5P1/5P1P/5BK1 w - - 0 1",
    "r2r2k1/pb3ppp/1p1bp3/7q/3n2nP/PP1B2P1/1B1N1P2/RQ2NRK1 b - - 0 1",
    "r1bqr1k1/pp3ppp/1bp5/3n4/3B4/2N2P1P/PPP1B1P1/R2Q1RK1 b - - 0 1",
    "r1bq4/1p4kp/3p1n2/p4pB1/2pQ4/8/1P4PP/4RRK1 w - - 0 1",
    "1r5k/p1p3pp/8/8/4p3/P1P1R3/1P1Q1qr1/2KR4 w - - 0 1",
    "1r1rb1k1/2p3pp/p2q1p2/3PpP1Q/Pp1bP2N/1B5R/1P4PP/2B4K w - - 0 1",
    "r3rnk1/1pq2bb1/p4p2/3p1Pp1/3B2P1/1NP4R/P1PQB3/2K4R w - - 0 1",
    "4R3/4q1kp/6p1/1Q3b2/1P1b1P2/6KP/8/8 b - - 0 1",
    "4rrn1/ppq3bk/3pPnpp/2p5/2PB4/2NQ1RPB/PP5P/5R1K w - - 0 1",
    "2r1k2r/2pn1pp1/1p3n1p/p3PP2/4q2B/P1P5/2Q1N1PP/R4RK1 w k - 0 1",
    "2rr3k/1b2bppP/p2p1n2/R7/3P4/1qB2P2/1P4Q1/1K5R w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "rn1qkb1r/pp2pppp/5n2/3p1b2/3P4/2N1P3/PP3PPP/R1BQKBNR w KQkq - 0 1",
    "rnbq1rk1/pppp1ppp/4pn2/8/1bPP4/P1N5/1PQ1PPPP/R1B1KBNR b KQ - 0 1",
    "rnbqkb1r/pppp1ppp/5n2/4p3/4PP2/2N5/PPPP2PP/R1BQKBNR b KQkq f3 0 1",
    "r1bqkb1r/2pp1ppp/p1n5/1p2p3/3Pn3/1B3N2/PPP2PPP/RNBQ1RK1 b kq - 0 1",
    "r1bqnr2/pp1ppkbp/4N1p1/n3P3/8/2N1B3/PPP2PPP/R2QK2R b KQ - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/1p1k4/p2p4/P2P4/1P1K4/8/8 w - - 0 1",
    "8/5pk1/6p1/8/5P2/4K1P1/8/3R4 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/8/8/4k3/8/8/2QK4/8 w - - 0 1",
    "3r2k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/3k4/8/8/8/4B3/4KN2/8 w - - 0 1",
];

/// Result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes over all positions (the signature).
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
    /// Positions searched.
    pub positions: usize,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Runs the bench at `depth` with `hash_mb` of hash; `progress` gets (index, fen, nodes).
/// A hash size that cannot be allocated is an error, not an abort.
pub fn run(depth: i32, hash_mb: usize, progress: &mut dyn FnMut(usize, &str, u64)) -> Result<BenchResult, String> {
    run_with(depth, hash_mb, Evaluation::Default, progress)
}

/// What evaluates in a bench run.
#[derive(Clone, Debug)]
pub enum Evaluation {
    /// The engine's default (the built-in network): the run gives the signature.
    Default,
    /// Another network (say a candidate, for its speed).
    Network(Arc<Network>),
    /// The hand-written evaluation.
    HandWritten,
}

/// [`run`] with another evaluation.
pub fn run_with(
    depth: i32,
    hash_mb: usize,
    eval: Evaluation,
    progress: &mut dyn FnMut(usize, &str, u64),
) -> Result<BenchResult, String> {
    let opts = EngineOptions { threads: 1, ..EngineOptions::default() };
    // Start small and resize: `set_options` allocates fallibly, `Engine::new` does not.
    let mut engine = Engine::new(EngineOptions { hash_mb: 1, ..opts.clone() });
    engine.set_options(EngineOptions { hash_mb, ..opts })?;
    match eval {
        Evaluation::Default => {}
        Evaluation::Network(net) => engine.set_network(Some(net)),
        Evaluation::HandWritten => engine.set_network(None),
    }
    let start = Instant::now();
    let mut total = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench FENs are valid");
        engine.clear();
        let r = engine.search(&pos, &[], &Limits::depth(depth), &mut |_| {});
        total += r.nodes;
        progress(i, fen, r.nodes);
    }
    Ok(BenchResult { nodes: total, time_ms: start.elapsed().as_millis() as u64, positions: POSITIONS.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_signature_is_deterministic() {
        for f in POSITIONS {
            assert!(Position::from_fen(f).is_ok(), "{f}");
        }
        assert!(POSITIONS.len() >= 50);
        let a = run(4, 4, &mut |_, _, _| {}).unwrap();
        let b = run(4, 4, &mut |_, _, _| {}).unwrap();
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 1000);
    }

    #[test]
    fn a_hash_that_cannot_be_allocated_is_an_error() {
        let e = run(1, usize::MAX / (1 << 21), &mut |_, _, _| {}).unwrap_err();
        assert!(e.contains("cannot allocate"), "{e}");
    }
}
