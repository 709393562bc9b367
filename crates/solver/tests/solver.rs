//! End-to-end checks: every reported solution is replayed with the core's
//! rules, and small cases are compared with a plain brute-force search.

use bastion_core::{Move, Position};
use bastion_solver::epd::parse_suite;
use bastion_solver::{solve_mate, verify, SolveOptions, Solver, Status, Stipulation};
use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

// ----- brute-force references: no table, no ordering, no shortcuts -----

fn brute_attack(p: &Position, n: u8) -> bool {
    n > 0 && p.legal_moves().iter().any(|&m| brute_defend(&p.play(m), n - 1))
}

fn brute_defend(p: &Position, j: u8) -> bool {
    let moves = p.legal_moves();
    if moves.is_empty() {
        return p.in_check();
    }
    j > 0 && moves.iter().all(|&d| brute_attack(&p.play(d), j))
}

fn brute_keys(p: &Position, n: u8) -> BTreeSet<String> {
    p.legal_moves().iter().filter(|&&m| brute_defend(&p.play(m), n - 1)).map(|&m| p.to_uci(m)).collect()
}

fn brute_help(p: &Position, plies: u8) -> usize {
    let moves = p.legal_moves();
    if plies == 1 {
        return moves.iter().filter(|&&m| p.play(m).is_checkmate()).count();
    }
    moves.iter().map(|&m| p.play(m)).filter(|c| c.has_legal_moves()).map(|c| brute_help(&c, plies - 1)).sum()
}

fn brute_series(p: &Position, n: u8) -> usize {
    let moves = p.legal_moves();
    if n == 1 {
        return moves.iter().filter(|&&m| p.play(m).is_checkmate()).count();
    }
    moves.iter().map(|&m| p.play(m)).filter(|c| !c.in_check()).map(|c| brute_series(&c.play_null(), n - 1)).sum()
}

fn brute_self_attack(p: &Position, n: u8) -> bool {
    p.legal_moves().iter().any(|&m| brute_self_defend(&p.play(m), n - 1))
}

fn brute_self_defend(p: &Position, j: u8) -> bool {
    let moves = p.legal_moves();
    !moves.is_empty()
        && moves.iter().all(|&d| {
            let c = p.play(d);
            c.is_checkmate() || (j > 0 && brute_self_attack(&c, j))
        })
}

fn keys_of(report: &bastion_solver::Report) -> BTreeSet<String> {
    report.keys.iter().map(|k| k.uci.clone()).collect()
}

/// Solves `#n` fully, checks every key against brute force (n ≤ 2) and
/// replays every line and defence.
fn check_direct(fen: &str, n: u8) -> bastion_solver::Report {
    let p = pos(fen);
    let mut s = Solver::new(8);
    let r = s.solve(&p, Stipulation::Direct(n), &SolveOptions { all_defences: true, threats: true }).unwrap();
    for k in &r.keys {
        verify::direct_line(&p, &k.line, k.moves).unwrap();
        assert_eq!(k.line.len(), 2 * k.moves as usize - 1, "{fen}: main line of {} has the wrong length", k.san);
        verify::direct_tree(&p, k, n, true).unwrap();
    }
    if n <= 2 {
        assert_eq!(keys_of(&r), brute_keys(&p, n), "{fen} #{n}");
    }
    assert_eq!(r.status == Status::Solved, !r.keys.is_empty());
    verify::report(&p, Stipulation::Direct(n), &r, true).unwrap();
    r
}

// ----- the suite sample -----

fn sample() -> Vec<bastion_solver::epd::MateEntry> {
    parse_suite(include_str!("data/mates-sample.epd")).unwrap()
}

#[test]
fn sample_mates_are_shortest_and_replay() {
    let mut s = Solver::new(16);
    for e in sample().iter().filter(|e| e.mate > 0) {
        let n = e.mate as u8;
        s.clear();
        assert_eq!(s.shortest_mate(&e.position, n).unwrap(), Some(n), "line {}", e.line);
        if n > 1 {
            assert!(!s.mate_within(&e.position, n - 1).unwrap(), "line {}", e.line);
        }
        let line = s.main_line(&e.position, n).unwrap();
        assert_eq!(line.len(), 2 * n as usize - 1);
        verify::direct_line(&e.position, &line, n).unwrap();
    }
}

#[test]
fn sample_mated_positions_lose_against_every_defence() {
    let mut s = Solver::new(16);
    for e in sample().iter().filter(|e| e.mate < 0) {
        let n = e.mate.unsigned_abs() as u8;
        s.clear();
        assert_eq!(s.shortest_mated(&e.position, n).unwrap(), Some(n), "line {}", e.line);
        // Replay: after every defence the opponent has a verified mate within n.
        for &d in e.position.legal_moves().iter() {
            let after = e.position.play(d);
            let k = s
                .shortest_mate(&after, n)
                .unwrap()
                .unwrap_or_else(|| panic!("line {}: defence {d:?} survives", e.line));
            let line = s.main_line(&after, k).unwrap();
            verify::direct_line(&after, &line, n).unwrap();
        }
        if n <= 2 {
            assert!(brute_defend(&e.position, n), "line {}", e.line);
        }
    }
}

#[test]
fn sample_short_problems_match_brute_force() {
    for e in sample().iter().filter(|e| e.mate > 0 && e.mate <= 3) {
        let r = check_direct(&e.position.fen(), e.mate as u8);
        assert_eq!(r.status, Status::Solved);
        assert_eq!(r.keys[0].moves, e.mate as u8, "line {}: shortest key first", e.line);
    }
}

// ----- constructed cases -----

#[test]
fn two_keys_are_both_listed() {
    let r = check_direct("k7/8/1K6/8/8/8/6R1/7R w - - 0 1", 1);
    assert_eq!(keys_of(&r), ["g2g8", "h1h8"].iter().map(|s| s.to_string()).collect());
}

#[test]
fn no_mate_is_proved() {
    let r = check_direct("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", 2);
    assert_eq!(r.status, Status::NoSolution);
    assert!(!brute_attack(&pos("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), 2));
}

#[test]
fn stalemate_is_not_mate() {
    // 1.Qc7?? stalemates; 1.Qc8# mates. In #2 Qc7 must not be a key.
    let fen = "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1";
    let r = check_direct(fen, 2);
    assert!(r.keys.iter().any(|k| k.uci == "c1c8" && k.moves == 1));
    assert!(!r.keys.iter().any(|k| k.uci == "c1c7"));
    // 1.Qb6?? stalemates, 1.Qb7# mates.
    let fen = "k7/2K5/8/1Q6/8/8/8/8 w - - 0 1";
    assert!(pos(fen).play(pos(fen).parse_uci("b5b6").unwrap()).is_stalemate());
    let r = check_direct(fen, 2);
    assert!(r.keys.iter().any(|k| k.uci == "b5b7" && k.moves == 1));
    assert!(!r.keys.iter().any(|k| k.uci == "b5b6"));
    // A side with only stalemating tries has no mate: K+B cannot mate.
    let r = check_direct("7k/8/6K1/8/8/8/8/1B6 w - - 0 1", 2);
    assert_eq!(r.status, Status::NoSolution);
}

#[test]
fn underpromotion_key() {
    let r = check_direct("8/5KPp/7k/6pp/8/8/8/8 w - - 0 1", 1);
    assert_eq!(keys_of(&r), ["g7g8n".to_string()].into());
}

#[test]
fn en_passant_key() {
    let r = check_direct("6bk/7p/4b3/3pP3/8/8/8/B3K3 w - d6 0 1", 1);
    assert_eq!(keys_of(&r), ["e5d6".to_string()].into());
    assert!(r.keys[0].mv.is_en_passant());
}

#[test]
fn castling_key() {
    let fen = "8/8/8/3N3B/2ppp3/3k4/8/R3K3 w Q - 0 1";
    let r = check_direct(fen, 1);
    assert!(r.keys.iter().any(|k| k.mv.is_castling() && k.san == "O-O-O#"), "{:?}", keys_of(&r));
}

#[test]
fn black_mates_in_three() {
    let r = check_direct("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3);
    assert_eq!(r.keys.len(), 1);
    assert_eq!(r.keys[0].san, "Bc5+");
    assert!(r.keys[0].main_line_text.starts_with("1...Bc5+ 2.K"));
}

#[test]
fn quiet_key_reports_its_threat() {
    let e = sample().into_iter().find(|e| e.mate == 2).unwrap();
    let r = check_direct(&e.position.fen(), 2);
    let k = &r.keys[0];
    assert!(!e.position.play(k.mv).in_check(), "the first #2 of the sample has a quiet key");
    let threat = k.threat.as_deref().expect("a quiet key threatens mate");
    assert!(threat.ends_with('#'), "{threat}");
    // The threat really mates if the defender could pass.
    let null = e.position.play(k.mv).play_null();
    let t = null.parse_san(threat.split('.').next_back().unwrap()).unwrap();
    assert!(null.play(t).is_checkmate());
}

// ----- other stipulations -----

#[test]
fn helpmate_lines_match_brute_force() {
    let fen = "8/8/8/2p1R3/1p2Qp2/1p1k1p2/1B5p/1K6 b - - 0 1";
    let p = pos(fen);
    let mut s = Solver::new(8);
    let r = s.solve(&p, Stipulation::Help { plies: 4 }, &SolveOptions::default()).unwrap();
    assert_eq!(r.lines_uci.len(), brute_help(&p, 4));
    verify::report(&p, Stipulation::Help { plies: 4 }, &r, false).unwrap();
    assert!(!r.lines.is_empty());
    for l in &r.lines_uci {
        let moves = replay_uci(&p, l, false);
        verify::help_line(&p, &moves, 4).unwrap();
    }
    let r3 = s.solve(&p, Stipulation::Help { plies: 3 }, &SolveOptions::default()).unwrap();
    assert_eq!(r3.lines_uci.len(), brute_help(&p, 3));
}

#[test]
fn series_lines_match_brute_force() {
    for (fen, n) in [
        ("8/3R4/b2p3p/2p3nk/1p2NNp1/p2BP3/r2P2P1/3K4 b - - 0 1", 3),
        ("3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1", 2),
    ] {
        let p = pos(fen);
        let mut s = Solver::new(8);
        let r = s.solve(&p, Stipulation::Series(n), &SolveOptions::default()).unwrap();
        assert_eq!(r.lines_uci.len(), brute_series(&p, n), "{fen}");
        verify::report(&p, Stipulation::Series(n), &r, false).unwrap();
        assert!(!r.lines.is_empty());
        for l in &r.lines_uci {
            verify::series_line(&p, &replay_uci(&p, l, true), n).unwrap();
        }
    }
}

#[test]
fn selfmates_match_brute_force() {
    for (fen, n) in [
        ("8/5B1r/1Rp1pr2/8/2Rp3q/3p3N/p2p1pPp/N2k1K1Q w - - 0 1", 1),
        ("8/5B1r/1Rp1pr2/8/2Rp3q/3p3N/p2p1pPp/N2k1K1Q w - - 0 1", 2),
        ("7n/3B1r2/b7/3p1p1r/3B3p/5R1K/8/7k w - - 0 1", 2),
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", 2),
    ] {
        let p = pos(fen);
        let mut s = Solver::new(8);
        let r = s.solve(&p, Stipulation::SelfMate(n), &SolveOptions::default()).unwrap();
        let brute: BTreeSet<String> =
            p.legal_moves().iter().filter(|&&m| brute_self_defend(&p.play(m), n - 1)).map(|&m| p.to_uci(m)).collect();
        assert_eq!(keys_of(&r), brute, "{fen} s#{n}");
        verify::report(&p, Stipulation::SelfMate(n), &r, false).unwrap();
        assert_eq!(brute_self_attack(&p, n), r.status == Status::Solved);
        for k in &r.keys {
            verify::self_line(&p, &k.line, n).unwrap();
        }
    }
}

fn replay_uci(p: &Position, l: &[String], series: bool) -> Vec<Move> {
    let mut cur = p.clone();
    let mut out = Vec::new();
    for (i, u) in l.iter().enumerate() {
        let m = cur.parse_uci(u).unwrap();
        out.push(m);
        cur = cur.play(m);
        if series && i + 1 < l.len() {
            cur = cur.play_null();
        }
    }
    out
}

// ----- engine API -----

#[test]
fn solve_mate_api_and_stop_flag() {
    let e = sample().into_iter().find(|e| e.mate == 4).unwrap();
    let stop = AtomicBool::new(false);
    let sol = solve_mate(&e.position, 6, &stop).unwrap();
    assert_eq!(sol.moves, 4);
    verify::direct_line(&e.position, &sol.pv, 4).unwrap();
    assert!(sol.nodes > 0);
    let stopped = AtomicBool::new(true);
    let hard = sample().into_iter().find(|e| e.mate == 5).unwrap();
    assert_eq!(solve_mate(&hard.position, 5, &stopped), None);
    assert_eq!(solve_mate(&pos("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), 2, &stop), None);
}

/// #6 and #7 from mates2000 that take well under a second: the root ordering
/// (forcing moves and short threats first) and the plain order prove the same
/// shortest length, and each main line replays to mate.
#[test]
fn root_ordering_changes_no_answer() {
    for (fen, n) in [
        ("2r1k2r/1p1pp1np/P1p4b/n1P1N2b/1p1PP1B1/2q2QB1/3NK1P1/5R2 w k - 0 1", 6),
        ("3R4/K7/B6p/kP1p2pP/rp1P1pP1/qp2pP2/rp2P3/bN6 w - - 0 1", 6),
        ("8/6K1/8/7k/8/5pPP/5P2/5B2 w - - 0 1", 6),
        ("8/3p4/3p4/8/7P/8/p7/k1K5 w - - 0 1", 7),
        ("8/6N1/8/4p3/4p3/8/2b4p/5K1k w - - 0 1", 7),
    ] {
        let p = pos(fen);
        for ordered in [true, false] {
            let mut s = Solver::new(16);
            s.set_root_ordering(ordered);
            assert_eq!(s.shortest_mate(&p, n).unwrap(), Some(n), "{fen} ordered {ordered}");
            let line = s.main_line(&p, n).unwrap();
            verify::direct_line(&p, &line, n).unwrap();
        }
    }
}

/// The node limit stops a search deterministically: two runs with the same
/// limit stop at the same count, and a generous limit changes no answer.
#[test]
fn node_limit_is_deterministic() {
    let p = pos("8/6K1/8/7k/8/5pPP/5P2/5B2 w - - 0 1");
    let mut counts = Vec::new();
    for _ in 0..2 {
        let mut s = Solver::new(16);
        s.set_node_limit(Some(20_000));
        assert_eq!(s.shortest_mate(&p, 6), Err(bastion_solver::Aborted::NodeLimit));
        counts.push(s.nodes());
    }
    assert_eq!(counts[0], counts[1]);
    assert!(counts[0] >= 20_000 && counts[0] < 30_000, "{counts:?}");
    let mut s = Solver::new(16);
    s.set_node_limit(Some(u64::MAX / 2));
    assert_eq!(s.shortest_mate(&p, 6), Ok(Some(6)));
}

/// The progress hook hears every length tried, in order, the last one found,
/// with rising node counts; the report is the same as without the hook.
#[test]
fn progress_hook_reports_each_iteration_and_changes_nothing() {
    use bastion_solver::Iteration;
    use std::sync::{Arc, Mutex};
    let direct = ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", Stipulation::Direct(5));
    let selfmate = ("7n/3B1r2/b7/3p1p1r/3B3p/5R1K/8/7k w - - 0 1", Stipulation::SelfMate(3));
    let none = ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", Stipulation::Direct(2));
    for (fen, stip) in [direct, selfmate, none] {
        let p = pos(fen);
        let opts = SolveOptions { all_defences: true, threats: true };
        let plain = Solver::new(8).solve(&p, stip, &opts).unwrap();
        let seen = Arc::new(Mutex::new(Vec::<Iteration>::new()));
        let sink = seen.clone();
        let mut s = Solver::new(8);
        s.set_progress(move |i| sink.lock().unwrap().push(*i));
        let hooked = s.solve(&p, stip, &opts).unwrap();
        assert_eq!(format!("{hooked:?}"), format!("{plain:?}"), "{fen}: the hook changed the report");
        let seen = seen.lock().unwrap();
        // Lengths 1, 2, ... up to the shortest solution (or the stipulation's length).
        let last = plain.keys.iter().map(|k| k.moves).min().unwrap_or(stip.moves());
        let tried: Vec<u8> = seen.iter().map(|i| i.moves).collect();
        assert_eq!(tried, (1..=last).collect::<Vec<u8>>(), "{fen}");
        assert!(seen.iter().rev().skip(1).all(|i| !i.found), "{fen}: only the last pass finds");
        assert_eq!(seen.last().unwrap().found, plain.status == Status::Solved, "{fen}");
        assert!(seen.windows(2).all(|w| w[0].nodes < w[1].nodes), "{fen}");
        assert!(seen.last().unwrap().nodes <= s.nodes());
    }
    assert!(Solver::new(8).solve(&pos(direct.0), direct.1, &SolveOptions::default()).unwrap().keys[0].moves == 3);
    // A helpmate is one exhaustive pass: one report.
    let p = pos("8/8/8/2p1R3/1p2Qp2/1p1k1p2/1B5p/1K6 b - - 0 1");
    let count = Arc::new(Mutex::new(Vec::new()));
    let sink = count.clone();
    let mut s = Solver::new(8);
    s.set_progress(move |i| sink.lock().unwrap().push((i.moves, i.found)));
    s.solve(&p, Stipulation::Help { plies: 4 }, &SolveOptions::default()).unwrap();
    assert_eq!(*count.lock().unwrap(), [(2, true)]);
    // A stopped solve reports nothing after the stop.
    let stop = AtomicBool::new(true);
    let mut s = Solver::new(8);
    let heard = Arc::new(Mutex::new(0));
    let sink = heard.clone();
    s.set_stop(&stop);
    s.set_progress(move |_| *sink.lock().unwrap() += 1);
    assert!(s.solve(&pos(direct.0), Stipulation::Direct(5), &SolveOptions::default()).is_err());
    assert_eq!(*heard.lock().unwrap(), 0);
}
