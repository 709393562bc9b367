//! `go` always ends in a `bestmove` unless told `infinite` or `ponder` (or given no limit
//! at all): a clock missing for the side to move, an invalid `mate` and unusable values
//! still give a bounded search.

mod common;

use common::{session, until, until_bestmove};

/// Positions with Black to move.
const BLACK_TO_MOVE: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3",
    "2r3k1/pp3ppp/8/3p4/3P4/8/PP3PPP/2R3K1 b - - 0 1",
    "8/8/4k3/8/2p5/8/B2K4/8 b - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
];

#[test]
fn a_clock_missing_for_the_side_to_move_counts_as_empty() {
    let (mut uci, rx) = session();
    for fen in BLACK_TO_MOVE {
        uci.handle(&format!("position fen {fen}"));
        // White's clock only: Black, to move, has none and moves at once.
        uci.handle("go wtime 1");
        let lines = until_bestmove(&rx);
        assert_ne!(lines.last().unwrap(), "bestmove 0000", "{fen}");
        uci.handle("go wtime 60000 winc 1000");
        until_bestmove(&rx);
    }
    // The same for White, and for an increment or movestogo without any clock.
    for go in ["go btime 1", "go winc 100", "go movestogo 10", "go binc 100 movestogo 1"] {
        uci.handle("position startpos");
        uci.handle(go);
        until_bestmove(&rx);
    }
}

#[test]
fn invalid_mate_values_are_reported_and_bounded() {
    let (mut uci, rx) = session();
    uci.handle("position startpos moves e2e4 e7e5");
    for go in ["go mate 0", "go mate -3"] {
        uci.handle(go);
        let lines = until_bestmove(&rx);
        assert!(
            lines.iter().any(|l| l.starts_with("info string") && l.contains("invalid")),
            "{go}: no message in {lines:#?}"
        );
        assert_ne!(lines.last().unwrap(), "bestmove 0000");
    }
    // A mate that exists is still found under the mate limit.
    uci.handle("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    uci.handle("go mate 1");
    let lines = until_bestmove(&rx);
    assert_eq!(lines.last().unwrap(), "bestmove d1d8", "{lines:#?}");
}

#[test]
fn unusable_limits_still_give_a_bounded_search() {
    let (mut uci, rx) = session();
    for go in ["go depth banana", "go nodes", "go movetime x mate y"] {
        uci.handle(go);
        let lines = until_bestmove(&rx);
        assert!(lines.iter().any(|l| l.starts_with("info string")), "{go}: {lines:#?}");
    }
}

#[test]
fn a_bare_go_searches_until_stop() {
    let (mut uci, rx) = session();
    for go in ["go", "go infinite", "go infinite wtime 1 btime 1"] {
        uci.handle(go);
        // isready is answered during the search: no bestmove may come before it.
        uci.handle("isready");
        let lines = until(&rx, "readyok");
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{go} ended by itself: {lines:#?}");
        uci.handle("stop");
        until_bestmove(&rx);
    }
}
