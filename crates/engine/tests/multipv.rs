//! MultiPV reports as a GUI reads them: every report is a full set of lines, one per
//! MultiPV index, and the lines of a set are different root moves, also when a line
//! failed outside its aspiration window and is reported as a bound.

use bastion_core::{Move, Position};
use bastion_engine::{Engine, EngineOptions, Limits, ScoreBound, SearchInfo};

const POSITIONS: [&str; 5] = [
    // Scholar's-mate threat: the lines after Qxf7# fail low against each other.
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2r3k1/pp3ppp/8/3p4/3P4/8/PP3PPP/2R3K1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// One report per line; `depth` and bound as reported.
struct Report {
    depth: i32,
    multipv: usize,
    bound: ScoreBound,
    first: Move,
}

#[test]
fn every_report_is_a_full_set_of_distinct_root_moves() {
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        for multipv in 2..=4 {
            // Progress from the first millisecond on, so that aspiration failures are
            // reported as they would be in a long analysis.
            let opts = EngineOptions { hash_mb: 8, multipv, progress_after_ms: 0, ..EngineOptions::default() };
            let mut engine = Engine::new(opts);
            let mut reports = Vec::new();
            let result = engine.search(&pos, &[], &Limits::depth(13), &mut |i: &SearchInfo| {
                reports.push(Report {
                    depth: i.depth,
                    multipv: i.line.multipv,
                    bound: i.line.bound,
                    first: *i.line.pv.first().expect("a line has a move"),
                })
            });
            let what = format!("{fen}, MultiPV {multipv}");
            assert!(reports.len() % multipv == 0, "{what}: {} lines", reports.len());
            let mut last_depth = 0;
            for set in reports.chunks(multipv) {
                let indexes: Vec<usize> = set.iter().map(|r| r.multipv).collect();
                assert_eq!(indexes, (1..=multipv).collect::<Vec<_>>(), "{what}: a report is not a full set");
                let mut moves: Vec<String> = set.iter().map(|r| pos.to_uci(r.first)).collect();
                moves.sort();
                moves.dedup();
                assert_eq!(moves.len(), multipv, "{what}, depth {}: a move on two lines", set[0].depth);
                // At most one line of a set is a bound, and depths only grow.
                assert!(set.iter().filter(|r| r.bound != ScoreBound::Exact).count() <= 1, "{what}");
                let depth = set.iter().map(|r| r.depth).max().unwrap();
                assert!(depth >= last_depth, "{what}");
                last_depth = depth;
            }
            // The final set is exact at the last depth and is the result's.
            let last = &reports[reports.len() - multipv..];
            assert!(last.iter().all(|r| r.bound == ScoreBound::Exact && r.depth == 13), "{what}");
            let firsts: Vec<Move> = result.lines.iter().map(|l| l.pv[0]).collect();
            assert_eq!(firsts, last.iter().map(|r| r.first).collect::<Vec<_>>(), "{what}");
        }
    }
}
