//! What a caller lends an analysis (`Hooks`): endgame tables, which decide
//! where they cover the position or the progress test's line, and a stop flag.
//! Against the scripted engine, with tables that answer one fixed value.

use std::sync::atomic::{AtomicBool, Ordering};

use bastion_core::{Position, TablebaseProbe, Wdl};
use bastion_fortress::{analyse_with, Basis, Config, FortressError, Hooks, ProbeOutcome, Stage, Verdict};
use bastion_uci_client::Engine;

/// Answers `wdl` for every position of at most `max` men, nothing beyond.
struct Fixed {
    max: u32,
    wdl: Wdl,
}

impl TablebaseProbe for Fixed {
    fn max_pieces(&self) -> u32 {
        self.max
    }
    fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        (pos.occupied().count() <= self.max).then_some(self.wdl)
    }
}

/// The scripted engine playing `scenario` (see `bastion-test-engine`).
fn engine(scenario: &str) -> Engine {
    let cmd = bastion_test_engine::scenario_command(scenario);
    Engine::spawn(&cmd[0], &cmd[1..]).expect("fake engine starts")
}

fn config() -> Config {
    Config { max_depth: 12, breakthrough: false, ..Config::default() }
}

/// Wrong-bishop KBPK: White is 4 points up (4 men).
const KBPK: &str = "8/k7/8/P7/8/2K5/3B4/8 w - - 0 1";

fn tables(tb: &dyn TablebaseProbe) -> Hooks<'_> {
    Hooks { tablebase: Some(tb), ..Hooks::default() }
}

#[test]
fn a_table_draw_overrules_rising_curves() {
    // The engine's curves rise: by themselves they say progress.
    let mut e = engine("default 100 20\n");
    let a = analyse_with(KBPK, &config(), &mut e, Hooks::default(), &mut |_| {}).unwrap();
    assert_eq!(a.verdict, Verdict::Progress);
    let draw = Fixed { max: 4, wdl: Wdl::Draw };
    let a = analyse_with(KBPK, &config(), &mut e, tables(&draw), &mut |_| {}).unwrap();
    assert_eq!((a.verdict, a.evidence.basis), (Verdict::Fortress, Basis::Tablebase), "{}", a.evidence.reason);
    assert_eq!(a.curve_verdict, Verdict::Progress);
    assert!(a.evidence.reason.starts_with("tablebase:"), "{}", a.evidence.reason);
    assert!(a.progress_test.is_none(), "the tables decide; no progress test");
    let tv = a.tablebase.as_ref().expect("the root was probed");
    assert_eq!((tv.men, tv.value.as_str(), tv.winner), (4, "draw", None));
    // The JSON names the basis too.
    let json = serde_json::to_string(&a).unwrap();
    assert!(json.contains("\"basis\":\"tablebase\""), "{json}");
    // With level material a table draw is a dead draw.
    let level = "8/k7/8/p7/8/2K5/P7/8 w - - 0 1";
    let a = analyse_with(level, &config(), &mut e, tables(&draw), &mut |_| {}).unwrap();
    assert_eq!((a.verdict, a.evidence.basis), (Verdict::DeadDraw, Basis::Tablebase));
}

#[test]
fn a_table_win_overrules_flat_low_curves() {
    // Flat at +0.30 with the top moves together: the curves say fortress.
    let mut e = engine("default 30 0\n");
    let win = Fixed { max: 4, wdl: Wdl::Win };
    let a = analyse_with(KBPK, &config(), &mut e, tables(&win), &mut |_| {}).unwrap();
    assert_eq!(a.curve_verdict, Verdict::Fortress);
    assert_eq!((a.verdict, a.evidence.basis), (Verdict::Progress, Basis::Tablebase), "{}", a.evidence.reason);
    // Tables that do not cover the position change nothing.
    let small = Fixed { max: 3, wdl: Wdl::Win };
    let a = analyse_with(KBPK, &config(), &mut e, tables(&small), &mut |_| {}).unwrap();
    assert_eq!(a.verdict, Verdict::Fortress);
    assert!(a.tablebase.is_none());
}

/// Black to move can take the knight (Kxb5): five men before, four after.
const KNIGHT_HANGS: &str = "8/8/k7/PN6/8/2K5/3B4/8 b - - 0 1";
/// The scripted engine likes Kxb5 best (White +3, flat) and scores Black's
/// other moves at White +6; after Kxb5 (searched as a position of its own)
/// every White move scores +3.
const TAKES: &str = "default 300 0\nmove - a6b5 -300 0\nmove - a6b7 -600 0\nmove - a6a5 -600 0\n";

#[test]
fn the_tables_judge_the_position_the_progress_test_reaches_after_a_capture() {
    let mut e = engine(TAKES);
    // Without tables the scripted engine's edge survives Kxb5 (the test
    // goes on past it): no fortress.
    let a = analyse_with(KNIGHT_HANGS, &config(), &mut e, Hooks::default(), &mut |_| {}).unwrap();
    assert_ne!(a.verdict, Verdict::Fortress, "{}", a.evidence.reason);
    assert!(a.progress_test.unwrap().steps.iter().any(|s| s.stage == 2));
    // The tables hold the 4-man ending after Kxb5, not the 5-man position.
    let draw = Fixed { max: 4, wdl: Wdl::Draw };
    let a = analyse_with(KNIGHT_HANGS, &config(), &mut e, tables(&draw), &mut |_| {}).unwrap();
    assert!(a.tablebase.is_none(), "five men: not in the tables");
    assert_eq!((a.verdict, a.evidence.basis), (Verdict::Fortress, Basis::Tablebase), "{}", a.evidence.reason);
    let test = a.progress_test.as_ref().expect("the test ran");
    assert_eq!(test.outcome, ProbeOutcome::Collapses);
    let tv = test.tablebase.as_ref().expect("the line reached the tables");
    assert_eq!((tv.line.clone(), tv.men), (vec!["Kxb5".to_owned()], 4));
    assert!(a.evidence.reason.contains("tablebase") && a.evidence.reason.contains("Kxb5"), "{}", a.evidence.reason);
    // A win there (White to move after Kxb5) is progress by the tables.
    let win = Fixed { max: 4, wdl: Wdl::Win };
    let a = analyse_with(KNIGHT_HANGS, &config(), &mut e, tables(&win), &mut |_| {}).unwrap();
    assert_eq!((a.verdict, a.evidence.basis), (Verdict::Progress, Basis::Tablebase), "{}", a.evidence.reason);
    assert_eq!(a.progress_test.unwrap().outcome, ProbeOutcome::Holds);
}

#[test]
fn a_stop_flag_ends_the_analysis_and_leaves_the_engine_usable() {
    let mut e = engine("default 30 0\n");
    let stop = AtomicBool::new(true);
    let hooks = Hooks { stop: Some(&stop), ..Hooks::default() };
    let r = analyse_with(KBPK, &config(), &mut e, hooks, &mut |_| {});
    assert!(matches!(r, Err(FortressError::Stopped)), "{r:?}");
    // Set while the main search runs (as another thread would): the search
    // is stopped and nothing else is searched.
    stop.store(false, Ordering::Relaxed);
    let mut stages = Vec::new();
    let r = analyse_with(KBPK, &config(), &mut e, hooks, &mut |s| {
        if s == (Stage::Main { depth: 4 }) {
            stop.store(true, Ordering::Relaxed);
        }
        stages.push(s);
    });
    assert!(matches!(r, Err(FortressError::Stopped)), "{r:?}");
    assert!(stages.iter().all(|s| matches!(s, Stage::Main { .. } | Stage::Line { .. })), "{stages:?}");
    // The same engine process answers the next analysis.
    stop.store(false, Ordering::Relaxed);
    let a = analyse_with(KBPK, &config(), &mut e, hooks, &mut |_| {}).unwrap();
    assert_eq!(a.verdict, Verdict::Fortress);
}

#[test]
fn the_main_search_reports_each_line_as_it_comes() {
    // Every exact line of the main search reaches the caller while it runs, and the
    // lines heard are the points of the finished curves.
    let mut e = engine("default 30 0\n");
    let mut lines = Vec::new();
    let a = analyse_with(KBPK, &config(), &mut e, Hooks::default(), &mut |s| {
        if let Stage::Line { depth, multipv, uci, eval } = s {
            lines.push((depth, multipv, uci, eval));
        }
    })
    .unwrap();
    assert!(!lines.is_empty());
    for c in &a.curves {
        for p in &c.evals_by_depth {
            assert!(lines.iter().any(|(d, _, u, e)| *d == p.depth && *u == c.uci && *e == p.eval), "{c:?} {lines:?}");
        }
    }
}
