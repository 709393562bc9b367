//! Search behaviour: mates, draws, limits, MultiPV, threads, stop.

use bastion_core::Position;
use bastion_engine::{Engine, EngineOptions, Limits, Score, SearchParams};
use std::time::{Duration, Instant};

fn engine() -> Engine {
    Engine::new(EngineOptions { hash_mb: 8, ..EngineOptions::default() })
}

fn search(e: &mut Engine, fen: &str, limits: Limits) -> bastion_engine::SearchResult {
    let pos = Position::from_fen(fen).unwrap();
    e.search(&pos, &[], &limits, &mut |_| {})
}

#[test]
fn finds_mates_from_the_suite_and_reports_mate_scores() {
    let text = include_str!("data/mates.epd");
    let mut e = engine();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen_end = line.find(" bm ").unwrap();
        let n: i32 = line[fen_end + 5..].trim_end_matches(';').trim().parse().unwrap();
        let pos = Position::from_fen(&line[..fen_end]).unwrap();
        e.clear();
        let limits = if n > 0 {
            Limits { mate: Some(n), depth: Some(4 * n + 12), ..Limits::default() }
        } else {
            Limits::depth(16)
        };
        let r = e.search(&pos, &[], &limits, &mut |_| {});
        if n > 0 {
            assert_eq!(r.score, Score::Mate(n), "{line}");
            let after = pos.play(r.best.unwrap());
            // The move must lead towards the mate: mate in 1 gives mate at once.
            if n == 1 {
                assert!(after.is_checkmate(), "{line}");
            }
        } else {
            // Negative: the side to move gets mated in |n| whatever it does.
            assert_eq!(r.score, Score::Mate(n), "{line}");
        }
    }
}

/// Queen, rook and two bishops mate a bare king inside the fifty-move rule at 2,000 nodes a
/// move, for either colour: the mop-up term gives the shallow search a slope to follow
/// (without it, the black queen and the black rook here still had no mate after 99 plies).
#[test]
fn bare_king_mates_are_found_at_a_few_thousand_nodes_a_move() {
    let mut e = engine();
    for fen in [
        "8/8/8/4k3/8/8/8/R6K w - - 0 1",
        "r6k/8/8/8/4K3/8/8/8 b - - 0 1",
        "8/8/8/3k4/8/8/8/Q6K w - - 0 1",
        "q6k/8/8/8/3K4/8/8/8 b - - 0 1",
        "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1",
        "2b1kb2/8/8/8/4K3/8/8/8 b - - 0 1",
    ] {
        e.clear();
        let mut pos = Position::from_fen(fen).unwrap();
        let mut history = Vec::new();
        while pos.has_legal_moves() && pos.halfmove_clock() < 100 {
            let r = e.search(&pos, &history, &Limits::nodes(2000), &mut |_| {});
            history.push(pos.key());
            pos = pos.play(r.best.expect("a legal move exists"));
        }
        assert!(pos.in_check() && !pos.has_legal_moves(), "{fen}: no mate, stopped at {}", pos.fen());
    }
}

#[test]
fn fifty_move_rule_and_stalemate_are_draws() {
    let mut e = engine();
    // KQ v K with the clock at 99 and no mate in one: every move ends the game drawn.
    let r = search(&mut e, "8/8/8/8/8/2k5/8/K6Q w - - 99 80", Limits::depth(6));
    assert_eq!(r.score, Score::Cp(0));
    // With a mate in one available, the mate counts.
    let r = search(&mut e, "7k/8/6K1/8/8/8/8/1Q6 w - - 99 80", Limits::depth(4));
    assert_eq!(r.score, Score::Mate(1));
    // Stalemate: no move, draw.
    let r = search(&mut e, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Limits::depth(5));
    assert_eq!(r.best, None);
    assert_eq!(r.score, Score::Cp(0));
    // Checkmated: no move, mated.
    let r = search(&mut e, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", Limits::depth(5));
    assert_eq!(r.best, None);
    assert_eq!(r.score, Score::Mate(0));
}

#[test]
fn repetition_in_the_game_history_is_a_draw() {
    let mut e = engine();
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 10 30").unwrap();
    let escape = pos.parse_uci("e8f8").unwrap();
    let repeated = pos.play(escape).key();
    // Without history, Black is simply lost.
    let r = e.search(&pos, &[], &Limits::depth(6), &mut |_| {});
    assert!(matches!(r.score, Score::Cp(c) if c < -500), "{:?}", r.score);
    // With the position after Kf8 seen four plies before it, Kf8 draws.
    e.clear();
    let history = [repeated, 1, 2];
    let r = e.search(&pos, &history, &Limits::depth(6), &mut |_| {});
    assert_eq!(r.best, Some(escape));
    assert_eq!(r.score, Score::Cp(0));
}

fn engine_with_contempt(contempt: i32) -> Engine {
    let mut opts = EngineOptions { hash_mb: 8, ..EngineOptions::default() };
    opts.params.contempt = contempt;
    Engine::new(opts)
}

#[test]
fn contempt_shifts_draws_against_the_root_side() {
    // The lost K v KQ position whose only hope is the repetition: the draw is worth -contempt
    // to the side at the root, whichever sign contempt has.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 10 30").unwrap();
    let escape = pos.parse_uci("e8f8").unwrap();
    let history = [pos.play(escape).key(), 1, 2];
    for contempt in [-40, 25] {
        let r = engine_with_contempt(contempt).search(&pos, &history, &Limits::depth(6), &mut |_| {});
        assert_eq!(r.best, Some(escape), "contempt {contempt}");
        assert_eq!(r.score, Score::Cp(-contempt), "contempt {contempt}");
    }
}

#[test]
fn contempt_decides_between_a_repetition_and_an_equal_game() {
    // A quiet, level position (Black to move) in which Ng8 would repeat the position four
    // plies back. Counting draws as +150 for itself, Black repeats; counting them as -150,
    // it plays on, and its score is that of the game, not of the draw.
    let pos = Position::from_fen("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 3 3").unwrap();
    let back = pos.parse_uci("f6g8").unwrap();
    let history = [pos.play(back).key(), 1, 2];
    let r = engine_with_contempt(-150).search(&pos, &history, &Limits::depth(7), &mut |_| {});
    assert_eq!(r.best, Some(back));
    assert_eq!(r.score, Score::Cp(150));
    let r = engine_with_contempt(150).search(&pos, &history, &Limits::depth(7), &mut |_| {});
    assert_ne!(r.best, Some(back));
    assert!(matches!(r.score, Score::Cp(c) if c.abs() < 100), "{:?}", r.score);
}

#[test]
fn each_limit_terminates_the_search() {
    let mut e = engine();
    let start = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let r = search(&mut e, start, Limits::depth(5));
    assert_eq!(r.depth, 5);
    e.clear();
    let r = search(&mut e, start, Limits::nodes(20_000));
    assert!(r.nodes >= 20_000 && r.nodes < 22_000, "nodes {}", r.nodes);
    e.clear();
    let t = Instant::now();
    let r = search(&mut e, start, Limits::movetime(150));
    assert!(t.elapsed() < Duration::from_millis(1500), "movetime overran: {:?}", t.elapsed());
    assert!(r.best.is_some());
    e.clear();
    // Clock: 1 second left, must move quickly.
    let t = Instant::now();
    let r = search(&mut e, start, Limits { wtime_ms: Some(1000), btime_ms: Some(1000), ..Limits::default() });
    assert!(t.elapsed() < Duration::from_millis(900), "clock overran: {:?}", t.elapsed());
    assert!(r.best.is_some());
    // Mate limit: stops once the mate is found, far before the depth cap.
    e.clear();
    let r = search(&mut e, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", Limits { mate: Some(1), ..Limits::default() });
    assert_eq!(r.score, Score::Mate(1));
    assert!(r.depth < 20);
}

#[test]
fn multipv_reports_distinct_sorted_lines_at_each_depth() {
    let mut e = Engine::new(EngineOptions { hash_mb: 8, multipv: 3, ..EngineOptions::default() });
    let pos = Position::startpos();
    let mut per_depth: std::collections::BTreeMap<i32, Vec<(usize, i32)>> = Default::default();
    let r = e.search(&pos, &[], &Limits::depth(6), &mut |info| {
        if info.line.bound == bastion_engine::ScoreBound::Exact {
            per_depth.entry(info.depth).or_default().push((info.line.multipv, info.line.score.ordinal()));
        }
    });
    assert_eq!(r.lines.len(), 3);
    let firsts: std::collections::HashSet<_> = r.lines.iter().map(|l| l.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
    assert!(r.lines.windows(2).all(|w| w[0].value >= w[1].value));
    for d in 1..=6 {
        let lines = &per_depth[&d];
        assert_eq!(lines.iter().map(|l| l.0).collect::<Vec<_>>(), vec![1, 2, 3], "depth {d}");
        assert!(lines.windows(2).all(|w| w[0].1 >= w[1].1), "depth {d}: {lines:?}");
    }
}

#[test]
fn searchmoves_and_threads() {
    let mut e = Engine::new(EngineOptions { hash_mb: 8, threads: 2, ..EngineOptions::default() });
    let pos = Position::startpos();
    let only = pos.parse_uci("a2a3").unwrap();
    let r = e.search(&pos, &[], &Limits { depth: Some(6), searchmoves: vec![only], ..Limits::default() }, &mut |_| {});
    assert_eq!(r.best, Some(only));
    let r = e.search(&pos, &[], &Limits::depth(8), &mut |_| {});
    assert!(pos.is_legal(r.best.unwrap()));
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let mut e = engine();
    let control = e.control();
    let pos = Position::startpos();
    let h = std::thread::spawn(move || {
        let r = e.search(&pos, &[], &Limits { infinite: true, ..Limits::default() }, &mut |_| {});
        (r, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    control.stop();
    let (r, done) = h.join().unwrap();
    assert!(r.best.is_some());
    assert!(done.duration_since(asked) < Duration::from_millis(500));
}

/// Every exact MultiPV value (centipawns, side to move) reported at depths 4..=depth.
fn multipv_values(fen: &str, depth: i32) -> Vec<(i32, i32)> {
    let mut e = Engine::new(EngineOptions { hash_mb: 16, multipv: 5, ..EngineOptions::default() });
    let pos = Position::from_fen(fen).unwrap();
    let mut values = Vec::new();
    e.search(&pos, &[], &Limits::depth(depth), &mut |info| {
        if info.line.bound == bastion_engine::ScoreBound::Exact && info.depth >= 4 {
            match info.line.score {
                Score::Cp(v) => values.push((info.depth, v)),
                Score::Mate(_) => values.push((info.depth, i32::MAX)),
            }
        }
    });
    assert!(!values.is_empty());
    values
}

#[test]
fn known_draws_stay_drawn_in_every_line_and_depth() {
    // Regressions: the fortress detector reads every MultiPV line at every depth.
    // Wrong bishop, king in the corner: delta pruning used to skip the king's recapture
    // of an under-promoted rook and reported +2..+5 in lines that were all dead draws.
    for (d, v) in multipv_values("7k/8/5K2/7P/8/8/2B5/8 w - - 0 1", 14) {
        assert_eq!(v, 0, "depth {d}");
    }
    // Rook v bishop, safe corner: move-count pruning used to drop the bishop's only
    // safe square and reported +3..+4. Queen v c-pawn with the stalemate defence:
    // quiescence stood pat in stalemates after taking the pawn.
    for fen in ["7k/8/5K2/8/8/8/6b1/R7 w - - 0 1", "6K1/8/8/8/8/8/1kp5/7Q w - - 0 1"] {
        for (d, v) in multipv_values(fen, 12) {
            assert!((-100..100).contains(&v), "{fen} depth {d}: {v}");
        }
    }
}

#[test]
fn every_search_switch_changes_the_search() {
    // Flipping any switch from its default must change what a fixed-depth search does on
    // one of these positions (a middlegame, a tactical one, an ending, a mate in three,
    // K+R v K),
    // with the network or with the hand-written evaluation (LazyEval serves only the
    // latter): a switch with no effect is dead code that self-play would measure as noise.
    let fens = [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 1 8",
        "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 1 7",
        "8/5pk1/6p1/3R4/1r5P/6P1/5PK1/8 b - - 0 40",
        "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1",
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    ];
    let run = |params: &SearchParams| -> Vec<(u64, Option<bastion_core::Move>)> {
        let mut out = Vec::new();
        for network in [true, false] {
            for fen in fens {
                let mut e =
                    Engine::new(EngineOptions { hash_mb: 8, params: params.clone(), ..EngineOptions::default() });
                if !network {
                    e.set_network(None);
                }
                let r = search(&mut e, fen, Limits::depth(9));
                out.push((r.nodes, r.best));
            }
        }
        out
    };
    let default = run(&SearchParams::default());
    let mut inert = Vec::new();
    // VariantArrays changes how repetitions are found, not which: the test below.
    for (name, field) in SearchParams::switches().iter().filter(|(name, _)| *name != "VariantArrays") {
        let mut p = SearchParams::default();
        let f = field(&mut p);
        *f = !*f;
        if run(&p) == default {
            inert.push(*name);
        }
    }
    assert!(inert.is_empty(), "switches with no effect at depth 9: {inert:?}");
}

#[test]
fn variant_arrays_find_the_repetitions_the_keys_find() {
    // Rook endings, where checks and shuffles repeat positions often (the thesis's §6.1): the
    // same tree, move and score with either repetition test.
    let fens = [
        "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
        "4k3/8/r7/4PK2/8/8/8/1R6 b - - 0 1",
        "8/5pk1/6p1/3R4/1r5P/6P1/5PK1/8 b - - 0 1",
    ];
    for fen in fens {
        let run = |variant_arrays: bool| {
            let params = SearchParams { variant_arrays, ..SearchParams::default() };
            let mut e = Engine::new(EngineOptions { hash_mb: 8, params, ..EngineOptions::default() });
            let r = search(&mut e, fen, Limits::depth(14));
            (r.nodes, r.best, r.score)
        };
        assert_eq!(run(true), run(false), "{fen}");
    }
}

/// The ablation switches of the thesis's Table 8.2: without the transposition table the
/// search writes nothing into it and still finds mates; a fixed null-move R changes the tree.
#[test]
fn ablation_without_the_table_and_with_a_fixed_null_move_reduction() {
    let mate_in_2 = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1";
    let mut opts = EngineOptions { hash_mb: 8, ..EngineOptions::default() };
    opts.params.transposition_table = false;
    opts.params.iir = false;
    let mut e = Engine::new(opts);
    let mut hashfull = Vec::new();
    let pos = Position::from_fen(mate_in_2).unwrap();
    let r = e.search(&pos, &[], &Limits::depth(8), &mut |i| hashfull.push(i.hashfull));
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
    assert!(hashfull.iter().all(|&h| h == 0), "{hashfull:?}");

    let nodes = |r: i32| {
        let mut opts = EngineOptions { hash_mb: 8, ..EngineOptions::default() };
        opts.params.null_move_reduction = r;
        let mut e = Engine::new(opts);
        let middlegame = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8";
        let pos = Position::from_fen(middlegame).unwrap();
        e.search(&pos, &[], &Limits::depth(10), &mut |_| {}).nodes
    };
    let (own, two) = (nodes(0), nodes(2));
    assert_ne!(own, two, "NullMoveReduction=2 searched the same tree as the engine's own R");
}

#[test]
fn a_cluster_rank_searches_the_depths_its_lazy_smp_helper_would() {
    // Rank 1 of a cluster with one thread a rank searches as the first helper thread: every
    // even depth (and depth 1), so its tree differs from rank 0's.
    let depths = |rank: usize| {
        let mut e = Engine::new(EngineOptions { hash_mb: 8, cluster_rank: rank, ..EngineOptions::default() });
        let mut seen = Vec::new();
        let r = e.search(&Position::startpos(), &[], &Limits::depth(8), &mut |i| {
            if seen.last() != Some(&i.depth) {
                seen.push(i.depth);
            }
        });
        assert!(Position::startpos().is_legal(r.best.unwrap()));
        seen
    };
    assert_eq!(depths(0), (1..=8).collect::<Vec<_>>());
    assert_eq!(depths(1), vec![1, 2, 4, 6, 8]);
}
