//! The labelled set itself is well-formed (and its constructed barriers are
//! what their label claims), a fast subset is right with Bastion's own
//! engine, and the detector reaches the measured accuracy with Debian's
//! Stockfish (ignored by default).

use std::collections::HashSet;
use std::path::Path;

use bastion_core::{Color, Position, Role, Square};
use bastion_fortress::labels::{read_labelled, Label, LabelledPosition};
use bastion_fortress::{analyse, Config, Verdict};

fn set_path() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/labelled.tsv"))
}

#[test]
fn labelled_set_is_well_formed() {
    let set = read_labelled(set_path()).unwrap();
    assert!(set.len() >= 120, "{} positions", set.len());
    let ids: HashSet<&str> = set.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), set.len(), "ids are unique");
    let count = |l: Label| set.iter().filter(|p| p.label == l).count();
    assert!(count(Label::Fortress) >= 40, "fortresses");
    assert!(count(Label::Progress) >= 40, "wins");
    assert!(count(Label::DeadDraw) >= 10, "dead draws");
    assert!(set.iter().all(|p| !p.source.is_empty()), "every position has a source");
    for p in &set {
        let pos = bastion_core::Position::from_fen(&p.fen).unwrap();
        assert!(pos.has_legal_moves(), "{} is not over", p.id);
    }
}

/// Whether `pos` is a complete locked barrier: on every file a white pawn
/// with a black pawn directly in front, the white pawns of neighbouring files
/// one rank apart. Then no pawn can move or capture, and no king or sliding
/// piece can cross: a diagonal step changes the rank by one, while the
/// barrier of the next file is two ranks high and offset by one.
fn barrier_ranks(pos: &Position) -> Option<[u8; 8]> {
    let mut w = [0u8; 8];
    for (file, rank) in w.iter_mut().enumerate() {
        let whites: Vec<u8> = (0..8u8)
            .filter(|&r| pos.role_at(Square::from_index(r as usize * 8 + file)) == Some(Role::Pawn))
            .filter(|&r| pos.piece_at(Square::from_index(r as usize * 8 + file)).map(|p| p.color) == Some(Color::White))
            .collect();
        let [r] = whites[..] else { return None };
        let front = pos.piece_at(Square::from_index((r as usize + 1) * 8 + file))?;
        if front.role != Role::Pawn || front.color != Color::Black {
            return None;
        }
        *rank = r;
    }
    w.windows(2).all(|p| p[0].abs_diff(p[1]) == 1).then_some(w)
}

/// The extra material of a constructed barrier can attack no pawn: no
/// knights or queens, and bishops only on the colour the enemy pawns do not
/// stand on.
fn extra_material_is_harmless(pos: &Position, w: &[u8; 8]) -> bool {
    // All black pawns share one square colour (neighbouring ranks differ by
    // one), and the white pawns the other.
    let black_parity = (w[0] as usize + 1) % 2;
    [Color::White, Color::Black].into_iter().all(|c| {
        let enemy_parity = if c == Color::White { black_parity } else { 1 - black_parity };
        pos.pieces(c, Role::Knight).is_empty()
            && pos.pieces(c, Role::Queen).is_empty()
            && pos.pieces(c, Role::Bishop).into_iter().all(|sq| {
                let i = sq.index();
                (i % 8 + i / 8) % 2 != enemy_parity
            })
    })
}

fn barrier_rows(set: &[LabelledPosition]) -> Vec<&LabelledPosition> {
    set.iter().filter(|p| p.id.starts_with("barrier_")).collect()
}

#[test]
fn constructed_barriers_are_what_their_label_claims() {
    let set = read_labelled(set_path()).unwrap();
    let rows = barrier_rows(&set);
    assert!(rows.len() >= 50, "{} barrier positions", rows.len());
    for p in rows {
        let pos = Position::from_fen(&p.fen).unwrap();
        let w = barrier_ranks(&pos).unwrap_or_else(|| panic!("{} is not a complete barrier", p.id));
        assert!(extra_material_is_harmless(&pos, &w), "{}: extra material could attack a pawn", p.id);
        let balance = bastion_fortress::classify::material_balance(&pos);
        match p.label {
            Label::DeadDraw => assert_eq!(balance, 0, "{}", p.id),
            Label::Fortress => assert!(balance.abs() >= 3, "{}", p.id),
            Label::Progress => panic!("{}: a barrier cannot be won", p.id),
        }
    }
}

/// A small subset that Bastion's own engine gets right quickly: a rook up
/// behind a locked chain (flat at a high level: the case the curves alone
/// call progress), constructed barriers for both colours, a dead draw, a
/// tablebase fortress and two wins.
#[test]
fn fast_subset_with_bastions_engine() {
    let set = read_labelled(set_path()).unwrap();
    let subset = [
        "chain_dark_bishop",
        "barrier_RR_1",
        "barrier_R_4_b",
        "barrier_draw_1",
        "kbpk_wrong_a",
        "kpk_opposition",
        "breakthrough_b6",
    ];
    let bin = bastion_test_engine::cargo_bin("bastion-cli", "bastion");
    let mut e = bastion_uci_client::Engine::spawn(&bin.display().to_string(), &[]).expect("bastion speaks UCI");
    let cfg = Config { max_depth: 12, breakthrough: false, ..Config::default() };
    for id in subset {
        let p = set.iter().find(|p| p.id == id).unwrap_or_else(|| panic!("{id} is in the set"));
        let a = analyse(&p.fen, &cfg, &mut e).unwrap();
        assert_eq!(a.verdict, p.label.verdict(), "{id}: {}", a.evidence.reason);
    }
    // The case: a rook up behind a blocked chain, flat at a high
    // level, is a fortress by the progress test although the curves alone
    // call it progress.
    let rook = "4k3/8/2p1p3/1pPpPp1p/pP1P1PpP/P5P1/8/2R1K3 w - - 0 1";
    let a = analyse(rook, &cfg, &mut e).unwrap();
    assert_eq!((a.verdict, a.curve_verdict), (Verdict::Fortress, Verdict::Progress), "{}", a.evidence.reason);
    assert_eq!(a.evidence.basis, bastion_fortress::Basis::ProgressTest);
    let test = a.progress_test.expect("the test ran");
    assert!(test.steps.iter().all(|s| s.collapsed), "{test:?}");
}

/// A slow win (KPK, White's king ten moves from its first useful pawn move):
/// every `k` of the progress test collapses, but the curves rise, and the
/// extended `k` finds the win where the plain test called it a fortress.
#[test]
fn a_slow_kpk_win_holds_at_the_extended_k() {
    let set = read_labelled(set_path()).unwrap();
    let p = set.iter().find(|p| p.id == "kpk_55").expect("kpk_55 is in the set");
    let bin = bastion_test_engine::cargo_bin("bastion-cli", "bastion");
    let mut e = bastion_uci_client::Engine::spawn(&bin.display().to_string(), &[]).expect("bastion speaks UCI");
    let cfg = Config { max_depth: 14, breakthrough: false, ..Config::default() };
    let a = analyse(&p.fen, &cfg, &mut e).unwrap();
    assert_eq!(a.verdict, Verdict::Progress, "{}", a.evidence.reason);
    let test = a.progress_test.expect("the test ran");
    let extend = cfg.probe.extend;
    assert!(test.steps.iter().any(|s| s.moves_left == extend && !s.collapsed), "{test:?}");
    assert!(test.summary.contains("extended"), "{}", test.summary);
    // Without the extension: the plain test's fortress.
    let plain = Config { probe: bastion_fortress::ProbeConfig { extend: 0, ..cfg.probe.clone() }, ..cfg };
    assert_eq!(analyse(&p.fen, &plain, &mut e).unwrap().verdict, Verdict::Fortress);
}

/// A pawn race won by promotion (KPKP, mate in 31-33): the progress test
/// follows the pushes of both sides to the promotion and stops there. A
/// promotion by the side ahead is progress; following on into the new
/// queen's slow win over the remaining pawn looked like a collapse (a dead
/// draw).
#[test]
fn a_pawn_race_is_progress_once_the_side_ahead_promotes() {
    let set = read_labelled(set_path()).unwrap();
    let p = set.iter().find(|p| p.id == "kpkp_long_5").expect("kpkp_long_5 is in the set");
    let bin = bastion_test_engine::cargo_bin("bastion-cli", "bastion");
    let mut e = bastion_uci_client::Engine::spawn(&bin.display().to_string(), &[]).expect("bastion speaks UCI");
    let cfg = Config { max_depth: 12, breakthrough: false, ..Config::default() };
    let a = analyse(&p.fen, &cfg, &mut e).unwrap();
    assert_eq!(a.verdict, Verdict::Progress, "{}", a.evidence.reason);
    let test = a.progress_test.expect("the test ran");
    assert!(test.summary.contains("=Q"), "the line reaches the promotion: {}", test.summary);
}

const STOCKFISH: &str = "/usr/games/stockfish";

fn stockfish() -> bastion_uci_client::Engine {
    let mut e = bastion_uci_client::Engine::from_command_line(STOCKFISH).expect("Debian stockfish installed");
    e.set_option("Threads", "1").unwrap();
    e
}

#[test]
#[ignore = "needs Debian stockfish; run by .ci/run"]
fn textbook_positions_with_stockfish() {
    let mut e = stockfish();
    let cfg = Config { max_depth: 16, ..Config::default() };
    let cases = [
        ("8/k7/8/P7/8/2K5/3B4/8 w - - 0 1", Verdict::Fortress),
        ("7k/8/5K2/8/8/8/6b1/R7 w - - 0 1", Verdict::Fortress),
        ("4k3/8/2p1p3/1pPpPp1p/pP1P1PpP/P5P1/8/2B1K3 w - - 0 1", Verdict::Fortress),
        ("8/8/8/8/2r5/8/2k5/K6Q w - - 0 1", Verdict::Progress),
        // (KPK mate in 28 with the king far from its pawn, once here, is a
        // known miss since the progress test: see docs/fortress.md.)
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Verdict::Progress),
        ("4k3/8/2p1p3/1pPpPp1p/pP1P1PpP/P5P1/8/2R1K3 w - - 0 1", Verdict::Fortress),
        ("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", Verdict::Progress),
    ];
    for (fen, want) in cases {
        let a = analyse(fen, &cfg, &mut e).unwrap();
        assert_eq!(a.verdict, want, "{fen}: {}", a.evidence.reason);
    }
}

#[test]
#[ignore = "needs Debian stockfish and about ten minutes; run by .ci/run"]
fn accuracy_on_the_labelled_set_with_stockfish() {
    // The settings of the documented benchmark (depth 20, the progress test
    // on, no breakthrough search): single-threaded fixed-depth searches with
    // a fresh hash are deterministic, so the measured figure (docs/fortress.md)
    // is what this asserts, with a little room.
    let set = read_labelled(set_path()).unwrap();
    let mut e = stockfish();
    let cfg = Config { breakthrough: false, ..Config::default() };
    let mut correct = 0;
    let mut wrong = Vec::new();
    for p in &set {
        let a = analyse(&p.fen, &cfg, &mut e).unwrap();
        if a.verdict == p.label.verdict() {
            correct += 1;
        } else {
            wrong.push(format!("{} ({})", p.id, a.verdict));
        }
        // A fortress must never be called progress: that is the costly error.
        if p.label == Label::Fortress {
            assert_ne!(a.verdict, Verdict::Progress, "{}: {}", p.id, a.evidence.reason);
        }
    }
    eprintln!("{correct}/{} correct; wrong: {wrong:?}", set.len());
    assert!(correct * 100 >= set.len() * 95, "{correct}/{}: {wrong:?}", set.len());
}
