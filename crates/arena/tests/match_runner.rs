//! The match runner and referee against the fake engine (`bastion-test-engine`
//! playing legal chess):
//! real processes, real UCI, every fault path.

use bastion_arena::book::{polyglot_key, LearnParams, PolyglotBook};
use bastion_arena::openings::{self, Opening};
use bastion_arena::pgn;
use bastion_arena::referee::{
    play_game, Adjudication, DrawRule, EngineConfig, GameEnd, Player, RefereeConfig, ResignRule,
};
use bastion_arena::stats::SprtParams;
use bastion_arena::time_control::TimeControl;
use bastion_arena::time_use::TimeUse;
use bastion_arena::tournament::{run_match, BookLearning, MatchConfig};
use bastion_core::{Color, Position};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use tempfile::TempDir;

/// The fake engine as a random mover named `name`; `flags` may change that
/// (a later flag overrides an earlier one).
fn engine(name: &str, flags: &str) -> EngineConfig {
    let command = format!("{} --play random --name {name} {flags}", bastion_test_engine::command());
    EngineConfig { name: name.into(), command, ..EngineConfig::default() }
}

fn fast_referee() -> RefereeConfig {
    RefereeConfig {
        time_control: TimeControl::Nodes(1),
        move_timeout: Duration::from_secs(10),
        adjudication: Adjudication { max_moves: Some(150), ..Adjudication::default() },
        ..RefereeConfig::default()
    }
}

fn openings_file() -> Vec<Opening> {
    openings::load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.epd")).unwrap()
}

fn config(a: EngineConfig, b: EngineConfig, games: usize) -> MatchConfig {
    MatchConfig {
        engines: [a, b],
        referee: fast_referee(),
        openings: openings_file(),
        games,
        repeat: true,
        concurrency: 2,
        sprt: None,
        pgn_out: None,
        resume: false,
        event: "test".into(),
        learning: None,
    }
}

/// A new directory, removed when dropped, and the path `name` in it.
fn temp(name: &str) -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

fn no_stop() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[test]
fn stronger_engine_wins_and_pgn_is_complete() {
    let (_dir, out) = temp("strong.pgn");
    let mut cfg = config(engine("Greedy", "--play greedy --seed 7"), engine("Random", "--play random --seed 9"), 12);
    cfg.pgn_out = Some(out.clone());
    let mut seen = 0;
    let report = run_match(&cfg, no_stop(), |_, r| {
        seen += 1;
        assert_eq!(r.games, seen);
    })
    .unwrap();
    assert_eq!(report.games, 12);
    assert_eq!(report.wins + report.draws + report.losses, 12);
    assert_eq!(report.pentanomial.iter().sum::<u64>(), 6);
    assert!(report.points > 6.0, "greedy should beat random: {}", report.summary_line());
    assert!(report.elo.unwrap() > 0.0);
    assert_eq!(report.finished.as_deref(), Some("completed"));
    let games = pgn::read_games(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!(games.len(), 12);
    let mut rounds: Vec<_> = games.iter().map(|g| g.header("Round").unwrap().to_string()).collect();
    rounds.sort();
    rounds.dedup();
    assert_eq!(rounds.len(), 12);
    for g in &games {
        assert!(g.error.is_none(), "{:?}", g.error);
        for tag in ["Event", "Site", "Date", "White", "Black", "TimeControl", "Termination", "FEN"] {
            assert!(g.header(tag).is_some(), "missing {tag}");
        }
        assert_ne!(g.result, "*");
        assert_eq!(g.header("Result"), Some(g.result.as_str()));
        // Each pair plays the same opening with colours reversed.
        let engine_moves = g.comments.iter().filter(|c| c.contains('s') && c.contains('/')).count();
        assert!(engine_moves > 0);
    }
    for pair in 1..=6 {
        let a = games.iter().find(|g| g.header("Round") == Some(&format!("{pair}.1"))).unwrap();
        let b = games.iter().find(|g| g.header("Round") == Some(&format!("{pair}.2"))).unwrap();
        assert_eq!(a.start, b.start);
        assert_eq!(a.header("White"), b.header("Black"));
    }
}

#[test]
fn crash_illegal_move_and_time_forfeit_lose_and_are_reported() {
    let opening = Opening::startpos();
    let cfg = fast_referee();
    let stop = || false;

    let mut good = Player::new(engine("Good", "--seed 3"));
    let mut crashy = Player::new(engine("Crashy", "--crash-after 2"));
    let r = play_game([&mut good, &mut crashy], &opening, &cfg, &stop);
    assert!(matches!(r.end, GameEnd::Crash { side: Color::Black, .. }), "{:?}", r.end);
    assert_eq!(r.winner, Some(Color::White));
    assert_eq!(r.moves.len(), 5, "three white moves, two black moves, then the crash");
    // The crashed engine is restarted for the next game.
    let r = play_game([&mut crashy, &mut good], &opening, &cfg, &stop);
    assert!(matches!(r.end, GameEnd::Crash { side: Color::White, .. }));
    assert_eq!(r.winner, Some(Color::Black));

    let mut cheat = Player::new(engine("Cheat", "--illegal-after 1"));
    let r = play_game([&mut cheat, &mut good], &opening, &cfg, &stop);
    assert_eq!(r.end, GameEnd::IllegalMove { side: Color::White, sent: "a1a1".into() });
    assert_eq!(r.result(), "0-1");
    assert!(r.reason.contains("illegal"));

    // Fixed move time 50 ms with a 50 ms margin; the sleeper takes 400 ms.
    let timed = RefereeConfig {
        time_control: TimeControl::MoveTime(Duration::from_millis(50)),
        time_margin: Duration::from_millis(50),
        ..fast_referee()
    };
    let mut slow = Player::new(engine("Slow", "--sleep-ms 400"));
    let r = play_game([&mut good, &mut slow], &opening, &timed, &stop);
    assert_eq!(r.end, GameEnd::TimeForfeit(Color::Black));
    assert_eq!(r.result(), "1-0");
    // A clock of 0.3 s: 80 ms per move flags Black on its fourth move.
    let clock = RefereeConfig {
        time_control: TimeControl::parse_clock("0.3+0").unwrap(),
        time_margin: Duration::from_millis(20),
        ..fast_referee()
    };
    let mut slowish = Player::new(engine("Slowish", "--sleep-ms 80"));
    let r = play_game([&mut good, &mut slowish], &opening, &clock, &stop);
    assert_eq!(r.end, GameEnd::TimeForfeit(Color::Black));
    assert!((6..=8).contains(&r.moves.len()), "flagged after 3 moves: {}", r.moves.len());
    // A hung engine is a time forfeit too, and is killed.
    let mut hung = Player::new(engine("Hung", "--hang-after 0"));
    let r = play_game([&mut hung, &mut good], &opening, &timed, &stop);
    assert_eq!(r.end, GameEnd::TimeForfeit(Color::White));
    // An engine that does not start loses without a move.
    let mut missing = Player::new(EngineConfig {
        name: "Missing".into(),
        command: "/nonexistent/engine".into(),
        ..EngineConfig::default()
    });
    let r = play_game([&mut good, &mut missing], &opening, &cfg, &stop);
    assert!(matches!(r.end, GameEnd::Crash { side: Color::Black, .. }));
    assert!(r.moves.is_empty());
}

#[test]
fn referee_plays_book_moves_for_an_engine_with_a_book() {
    use bastion_arena::book::BookEntry;
    let start = Position::startpos();
    let e4 = start.parse_san("e4").unwrap();
    let after = start.play(e4);
    let c5 = after.parse_san("c5").unwrap();
    let nf3 = after.play(c5).parse_san("Nf3").unwrap();
    let book = PolyglotBook::from_entries(vec![
        BookEntry::new(polyglot_key(&start), &start, e4, 5),
        BookEntry::new(polyglot_key(&after), &after, c5, 5),
        BookEntry::new(polyglot_key(&after.play(c5)), &after.play(c5), nf3, 5),
    ]);
    let (_dir, path) = temp("referee-book.bin");
    book.save(&path).unwrap();
    let mut with_book = engine("Booked", "--seed 8");
    with_book.book = Some(path.display().to_string());
    with_book.book_depth = 2;
    let mut a = Player::new(with_book);
    let mut b = Player::new(engine("Plain", "--seed 9"));
    let r = play_game([&mut a, &mut b], &Opening::startpos(), &fast_referee(), &|| false);
    // White's first move comes from the book; Black has no book; ply 2 is beyond bookdepth.
    assert_eq!(r.moves[0], e4);
    assert_eq!(r.comments[0], "book");
    assert_ne!(r.comments[1], "book");
    assert_ne!(r.comments[2], "book");
    assert!(EngineConfig::parse(&["cmd=x".into(), "bookdepth=x".into()]).is_err());
    let parsed = EngineConfig::parse(&["cmd=x".into(), "book=b.bin".into(), "bookdepth=8".into()]).unwrap();
    assert_eq!((parsed.book.as_deref(), parsed.book_depth), (Some("b.bin"), 8));
}

#[test]
fn faults_are_counted_in_match_reports() {
    let cfg = config(engine("Good", "--seed 5"), engine("Crashy", "--crash-after 3"), 4);
    let report = run_match(&cfg, no_stop(), |_, _| {}).unwrap();
    assert_eq!(report.games, 4);
    // Crashy crashes on its 4th search of each process; every game it plays restarts it only after a crash.
    let f = report.faults.get("Crashy").copied().unwrap_or_default();
    assert!(f.crashes >= 1, "{report:?}");
    assert_eq!(report.terminations.get("crash").copied().unwrap_or(0), f.crashes);
    assert!(report.final_report().contains("crashes"));
}

#[test]
fn resign_and_draw_adjudication() {
    let mut cfg = config(engine("Sure", "--score 1000 --seed 2"), engine("Glum", "--score -1000 --seed 4"), 4);
    cfg.referee.adjudication.resign = Some(ResignRule { moves: 3, score_cp: 900 });
    let mut lengths = Vec::new();
    let report = run_match(&cfg, no_stop(), |g, _| lengths.push(g.moves.len())).unwrap();
    assert_eq!((report.wins, report.draws, report.losses), (4, 0, 0), "{report:?}");
    assert_eq!(report.terminations.get("resign adjudication"), Some(&4));
    // EPD openings have no book moves: 3 moves each = 6 plies.
    assert!(lengths.iter().all(|&n| n == 6), "{lengths:?}");

    let mut cfg = config(engine("Calm", "--score 0"), engine("Calm2", "--score 5"), 2);
    cfg.referee.adjudication.draw = Some(DrawRule { min_move: 1, moves: 4, score_cp: 10 });
    let report = run_match(&cfg, no_stop(), |g, _| assert_eq!(g.moves.len(), 8)).unwrap();
    assert_eq!(report.draws, 2);
    assert_eq!(report.terminations.get("draw adjudication"), Some(&2));
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let mut cfg = config(engine("Sure", "--score 1000"), engine("Glum", "--score -1000"), 400);
    cfg.referee.adjudication.resign = Some(ResignRule { moves: 1, score_cp: 500 });
    cfg.sprt = Some(SprtParams::new(0.0, 50.0, 0.05, 0.05).unwrap());
    // A slow consumer (a loaded machine, a slow disk) must not let the
    // workers run ahead and play games after the test has been decided.
    let report = run_match(&cfg, no_stop(), |_, _| std::thread::sleep(Duration::from_millis(20))).unwrap();
    assert_eq!(report.finished.as_deref(), Some("sprt"));
    let sprt = report.sprt.unwrap();
    assert_eq!(sprt.result, "H1");
    assert!(sprt.llr >= sprt.upper);
    assert!(report.games < 60, "stopped after {} games: {:?}", report.games, report.pentanomial);
    assert_eq!(report.losses, 0);
}

#[test]
fn interrupted_match_resumes_from_its_pgn() {
    let (_dir, out) = temp("resume.pgn");
    let mut cfg = config(engine("A", "--seed 11"), engine("B", "--seed 12"), 4);
    cfg.pgn_out = Some(out.clone());
    let first = run_match(&cfg, no_stop(), |_, _| {}).unwrap();
    // Simulate an interruption that left a lone first game of pair 3.
    let mut text = std::fs::read_to_string(&out).unwrap();
    let extra = text.split("\n\n[Event").next().unwrap().replace("[Round \"1.1\"]", "[Round \"3.1\"]");
    text.push_str(&format!("{extra}\n\n"));
    std::fs::write(&out, text).unwrap();
    cfg.games = 8;
    cfg.resume = true;
    let second = run_match(&cfg, no_stop(), |_, _| {}).unwrap();
    assert_eq!(second.resumed_games, 4);
    assert_eq!(second.games, 8);
    assert_eq!(second.wins + second.losses + second.draws, 8);
    let games = pgn::read_games(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!(games.len(), 8, "the partial pair was dropped and replayed");
    assert_eq!(first.games, 4);
    // Resuming a finished match plays nothing more.
    let third = run_match(&cfg, no_stop(), |_, _| panic!("no game expected")).unwrap();
    assert_eq!(third.games, 8);
}

#[test]
fn interrupt_flag_stops_without_writing_partial_games() {
    let (_dir, out) = temp("interrupt.pgn");
    let mut cfg = config(engine("A", "--sleep-ms 30"), engine("B", "--sleep-ms 30"), 40);
    cfg.referee.time_control = TimeControl::MoveTime(Duration::from_millis(10));
    cfg.referee.time_margin = Duration::from_secs(1);
    cfg.pgn_out = Some(out.clone());
    let stop = no_stop();
    let flag = stop.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let report = run_match(&cfg, stop, |_, _| {}).unwrap();
    assert_eq!(report.finished.as_deref(), Some("interrupted"));
    assert!(report.games < 40);
    let games = pgn::read_games(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!(games.len() as u64, report.games);
    assert!(games.iter().all(|g| g.result != "*"));
}

#[test]
fn match_learns_a_book_for_one_engine() {
    let (_dir, book_path) = temp("learn.bin");
    let mut cfg = config(engine("Learner", "--play greedy --seed 21"), engine("Other", "--seed 22"), 4);
    cfg.openings = vec![Opening::startpos()];
    let params = LearnParams { max_ply: 8, ..LearnParams::default() };
    cfg.learning = Some(BookLearning { path: book_path.clone(), learner: 0, params });
    let mut records = Vec::new();
    run_match(&cfg, no_stop(), |g, _| records.push(g.clone())).unwrap();
    let book = PolyglotBook::open(&book_path).unwrap();
    assert!(!book.is_empty());
    // Every book entry is a move the learner played, in a position it had to move in.
    let mut learner_keys = std::collections::HashSet::new();
    let mut other_keys = std::collections::HashSet::new();
    for r in &records {
        let mut p = Position::startpos();
        for (i, &m) in r.moves.iter().take(8).enumerate() {
            let learner_moves = (r.white == "Learner") == (i % 2 == 0);
            if learner_moves {
                learner_keys.insert(polyglot_key(&p))
            } else {
                other_keys.insert(polyglot_key(&p))
            };
            p = p.play(m);
        }
    }
    assert!(book.entries().iter().all(|e| learner_keys.contains(&e.key)));
    assert!(book.probe(&Position::startpos()).len() <= 2);
}

#[test]
fn an_engine_with_its_own_clock_plays_at_time_odds() {
    let opening = Opening::startpos();
    let stop = || false;
    // The match clock is 0.3 s; the slow engine (80 ms a move) has its own 1 s, so it
    // flags on its 13th move instead of its 4th.
    let clock = RefereeConfig {
        time_control: TimeControl::parse_clock("0.3+0").unwrap(),
        time_margin: Duration::from_millis(20),
        ..fast_referee()
    };
    let mut good = Player::new(engine("Good", "--seed 3"));
    let mut odds = engine("Slowish", "--sleep-ms 80");
    odds = EngineConfig::parse(&[format!("name={}", odds.name), format!("cmd={}", odds.command), "tc=1+0".to_string()])
        .unwrap();
    assert_eq!(odds.tc, Some(TimeControl::parse_clock("1").unwrap()));
    let mut slowish = Player::new(odds);
    let r = play_game([&mut good, &mut slowish], &opening, &clock, &stop);
    assert_eq!(r.end, GameEnd::TimeForfeit(Color::Black));
    assert!((22..=27).contains(&r.moves.len()), "flagged after about 12 moves: {}", r.moves.len());
    let pgn = r.to_pgn_game("odds", "here", "1", &clock.time_control);
    assert_eq!(pgn.header("WhiteTimeControl"), Some("0.3"));
    assert_eq!(pgn.header("BlackTimeControl"), Some("1"));
    assert_eq!(pgn.header("TimeControl"), None);
    assert!(EngineConfig::parse(&["cmd=x".to_string(), "tc=fast".to_string()]).unwrap_err().contains("tc="));
}

#[test]
fn match_reports_each_engines_time_use() {
    // At 5 s a game, an engine that takes 30 ms a move spends at least that, and its lowest
    // clock is what it had left at some move of some game.
    let mut cfg = config(engine("Quick", "--seed 5"), engine("Slow", "--sleep-ms 30 --seed 6"), 2);
    cfg.referee.time_control = TimeControl::parse_clock("5+0").unwrap();
    cfg.referee.adjudication.max_moves = Some(15);
    let (_dir, out) = temp("time_use.pgn");
    cfg.pgn_out = Some(out.clone());
    let report = run_match(&cfg, no_stop(), |_, _| {}).unwrap();
    assert_eq!(report.games, 2);
    let (quick, slow) = (&report.time_use["Quick"], &report.time_use["Slow"]);
    let pgn_text = std::fs::read_to_string(&out).unwrap();
    let timed = pgn::read_games(pgn_text.as_bytes())
        .unwrap()
        .iter()
        .flat_map(|g| g.comments.iter())
        .filter(|c| c.split(',').next().is_some_and(|c| c.trim_end().ends_with('s')))
        .count() as u64;
    assert_eq!(quick.moves + slow.moves, timed, "every engine move once, no book move");
    assert!(slow.mean_seconds().unwrap() >= 0.03, "{}", slow.describe());
    assert!(quick.mean_seconds().unwrap() < slow.mean_seconds().unwrap());
    let low = slow.lowest_clock.unwrap();
    assert!(low > 0.0 && low < 5.0 - 0.03, "{}", slow.describe());
    assert!(["1.1", "1.2"].contains(&slow.lowest_clock_round.as_deref().unwrap()));
    assert!(report.final_report().contains("Time use of Slow: "), "{}", report.final_report());
    // On a clock the report also gives the profile over the game.
    assert!(report.final_report().contains("\n  a move ÷ even share, moves 1–10 "), "{}", report.final_report());
    assert_eq!(slow.clock_games, 2);
    // Read back from the PGN's move comments (seconds rounded to the millisecond), the
    // tallies agree with the referee's.
    let mut read = std::collections::BTreeMap::<String, TimeUse>::new();
    for g in pgn::read_games(pgn_text.as_bytes()).unwrap() {
        for (name, t) in TimeUse::of_pgn_game(&g) {
            read.entry(name).or_default().merge(&t);
        }
    }
    for (name, t) in [("Quick", quick), ("Slow", slow)] {
        let r = &read[name];
        assert_eq!((r.moves, r.depth_moves, r.depth_sum, r.clock_games), (t.moves, t.depth_moves, t.depth_sum, 2));
        assert!((r.seconds - t.seconds).abs() <= 0.001 * t.moves as f64, "{name}: {r:?} vs {t:?}");
        assert!((r.lowest_clock.unwrap() - t.lowest_clock.unwrap()).abs() <= 0.001 * t.moves as f64);
    }
}
