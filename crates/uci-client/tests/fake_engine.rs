//! Drives the fake engine (`bastion-test-engine`) through normal, crash and hang paths.

use std::time::{Duration, Instant};

use bastion_uci_client::{
    Awaiting, Engine, EngineBuilder, GoParams, OptionKind, Score, SearchControl, StderrMode, UciError,
};

/// Generous: the test machine is small and shared.
const LIMIT: Duration = Duration::from_secs(10);

/// The fake engine's executable.
fn exe() -> &'static str {
    bastion_test_engine::path().to_str().expect("a UTF-8 path")
}

/// The fake engine started with `flags`, e.g. `--mode silent`.
fn fake(flags: &str) -> Engine {
    let args: Vec<String> = flags.split_whitespace().map(str::to_owned).collect();
    Engine::spawn(exe(), &args).expect("fake engine starts")
}

fn moves(list: &[&str]) -> Vec<String> {
    list.iter().map(|m| (*m).to_owned()).collect()
}

/// Whether a process with this pid still exists (and is not a zombie
/// waiting to be reaped). `None` where `/proc` is unavailable.
fn process_exists(pid: u32) -> Option<bool> {
    if !std::path::Path::new("/proc/self").exists() {
        return None;
    }
    Some(std::path::Path::new(&format!("/proc/{pid}")).exists())
}

#[test]
fn engine_handle_is_send() {
    fn assert_send<T: Send>() {}
    assert_send::<Engine>();
}

#[test]
fn handshake_collects_id_and_options() {
    let engine = fake("");
    assert_eq!(engine.name(), Some("Fake Engine 1.0"));
    assert_eq!(engine.id().author.as_deref(), Some("Bastion Tests"));
    // Eight valid options; the malformed one is skipped.
    assert_eq!(engine.options().len(), 8);
    let hash = engine.option("hash").expect("case-insensitive lookup");
    assert_eq!(hash.kind, OptionKind::Spin);
    assert_eq!((hash.min, hash.max), (Some(1), Some(33_554_432)));
    let style = engine.option("Style").unwrap();
    assert_eq!(style.vars, ["Very Solid", "Normal", "Risky"]);
    assert_eq!(engine.option("Clear Hash").unwrap().kind, OptionKind::Button);
    assert_eq!(engine.option("SyzygyPath").unwrap().default.as_deref(), Some(""));
}

#[test]
fn full_search_round_trip() {
    let mut engine = fake("");
    engine.set_option("Hash", "64").unwrap();
    engine.set_option("SyzygyPath", "/tb/a b").unwrap();
    engine.press_button("Clear Hash").unwrap();
    engine.new_game().unwrap();
    engine.is_ready(LIMIT).unwrap();
    engine.position("startpos", &moves(&["e2e4", "e7e5"])).unwrap();

    let started = Instant::now();
    let result = engine.search(&GoParams::depth(5), LIMIT).unwrap();
    assert!(result.elapsed <= started.elapsed());
    assert!(result.elapsed > Duration::ZERO);
    assert!(!engine.is_searching());

    assert_eq!(result.best_move(), Some("e2e4"));
    assert_eq!(result.best.ponder.as_deref(), Some("e7e5"));
    assert_eq!(result.depth(), Some(5));
    assert_eq!(result.score(), Some(Score::Cp(50)));
    assert_eq!(result.final_info().unwrap().pv, ["e2e4", "e7e5"]);

    let strings: Vec<&str> = result.infos.iter().filter_map(|i| i.string.as_deref()).collect();
    assert_eq!(
        strings,
        [
            "position startpos moves e2e4 e7e5",
            "options Clear Hash=<pressed>;Hash=64;SyzygyPath=/tb/a b;newgame=yes",
            "go depth 5",
        ]
    );
    // 3 strings + 5 depths + 1 garbage info; the non-UCI line is dropped.
    assert_eq!(result.infos.len(), 9);

    // A second search gets its own answer; an "unlimited" limit is fine.
    engine.position("8/8/8/8/8/8/8/K1k5 w - - 0 1", &[]).unwrap();
    engine.is_ready(Duration::MAX).unwrap();
    let second = engine.search(&GoParams::nodes(1), Duration::MAX).unwrap();
    assert_eq!(second.best_move(), Some("d2d4"));
    assert_eq!(second.infos[0].string.as_deref(), Some("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"));

    let status = engine.quit(LIMIT).unwrap().expect("reaped");
    assert!(status.success());
}

#[test]
fn command_line_is_split_like_a_shell() {
    let line = format!("'{}' --mode \"normal\"", exe());
    let mut engine = Engine::from_command_line(&line).unwrap();
    assert_eq!(engine.name(), Some("Fake Engine 1.0"));
    engine.is_ready(LIMIT).unwrap();

    assert!(matches!(Engine::from_command_line("   "), Err(UciError::EmptyCommand)));
    assert!(matches!(EngineBuilder::from_command_line("engine 'unterminated"), Err(UciError::BadCommandLine(_))));
}

#[test]
fn streaming_callback_can_stop_infinite_search() {
    let mut engine = fake("");
    let mut seen = 0;
    let result = engine
        .search_with(&GoParams::infinite(), LIMIT, |info| {
            if info.depth.is_some() {
                seen += 1;
            }
            if info.depth >= Some(4) {
                SearchControl::Stop
            } else {
                SearchControl::Continue
            }
        })
        .unwrap();
    assert!(seen >= 4);
    assert_eq!(result.best_move(), Some("e2e4"));
    assert!(matches!(result.score(), Some(Score::Mate(d)) if d >= 4));
    // The engine is still in sync afterwards.
    engine.is_ready(LIMIT).unwrap();
}

#[test]
fn split_go_stop_wait() {
    let mut engine = fake("");
    engine.go(&GoParams::infinite()).unwrap();
    assert!(engine.is_searching());
    assert!(matches!(engine.go(&GoParams::depth(1)), Err(UciError::SearchInProgress)));
    assert!(matches!(engine.is_ready(LIMIT), Err(UciError::SearchInProgress)));
    std::thread::sleep(Duration::from_millis(30));
    engine.stop().unwrap();
    engine.stop().unwrap(); // idempotent
    let result = engine.wait_bestmove(LIMIT, |_| SearchControl::Continue).unwrap();
    assert_eq!(result.best_move(), Some("e2e4"));
    assert!(result.elapsed >= Duration::from_millis(30));
    assert!(matches!(engine.wait_bestmove(LIMIT, |_| SearchControl::Continue), Err(UciError::NoSearch)));
}

#[test]
fn crash_during_search_is_reported_with_exit_status() {
    let mut engine = fake("--crash-after 0");
    let err = engine.search(&GoParams::depth(5), LIMIT).unwrap_err();
    assert!(err.is_crash(), "{err}");
    match err {
        UciError::EngineExited { awaiting, status } => {
            assert_eq!(awaiting, Awaiting::BestMove);
            assert_eq!(status.and_then(|s| s.code()), Some(3));
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(!engine.is_searching());
    // Later calls fail fast instead of waiting.
    let started = Instant::now();
    assert!(engine.is_ready(LIMIT).unwrap_err().is_crash());
    assert!(engine.position("startpos", &[]).unwrap_err().is_crash());
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[test]
fn hung_search_times_out_and_engine_is_killed_on_drop() {
    let mut engine = fake("--hang-after 0");
    let pid = engine.pid();
    let limit = Duration::from_millis(300);
    let started = Instant::now();
    let err = engine.search(&GoParams::depth(5), limit).unwrap_err();
    let waited = started.elapsed();
    assert!(matches!(err, UciError::Timeout { awaiting: Awaiting::BestMove, limit: l } if l == limit), "{err:?}");
    assert!(err.is_timeout());
    assert!(waited >= limit && waited < limit + Duration::from_secs(3), "{waited:?}");
    assert!(!engine.is_searching());

    assert_ne!(process_exists(pid), Some(false));
    drop(engine);
    assert_ne!(process_exists(pid), Some(true), "engine process survived drop");
}

#[test]
fn info_flood_does_not_extend_the_deadline() {
    let mut engine = fake("--mode spam");
    let limit = Duration::from_millis(200);
    let started = Instant::now();
    let err = engine.search(&GoParams::depth(1), limit).unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
    assert!(started.elapsed() < limit + Duration::from_secs(3));
}

#[test]
fn late_bestmove_of_timed_out_search_is_not_reused() {
    let mut engine = Engine::builder(exe()).args(["--sleep-ms", "400"]).spawn().unwrap();
    let err = engine.search(&GoParams::depth(1), Duration::from_millis(50)).unwrap_err();
    assert!(err.is_timeout());
    // The first search's "e2e4" arrives late and must be skipped.
    let result = engine.search(&GoParams::depth(1), LIMIT).unwrap();
    assert_eq!(result.best_move(), Some("d2d4"));
}

#[test]
fn handshake_timeout_and_crash() {
    let started = Instant::now();
    let err = Engine::builder(exe())
        .args(["--mode", "silent"])
        .handshake_timeout(Duration::from_millis(200))
        .spawn()
        .unwrap_err();
    assert!(matches!(err, UciError::Timeout { awaiting: Awaiting::UciOk, .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(3));

    let err = Engine::spawn(exe(), &moves(&["--mode", "crash-on-uci"])).unwrap_err();
    match err {
        UciError::EngineExited { awaiting, status } => {
            assert_eq!(awaiting, Awaiting::UciOk);
            assert_eq!(status.and_then(|s| s.code()), Some(2));
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn missing_program_is_a_spawn_error() {
    let err = Engine::spawn("/nonexistent/bastion-engine", &[]).unwrap_err();
    assert!(matches!(err, UciError::Spawn { .. }), "{err:?}");
    assert!(err.to_string().contains("/nonexistent/bastion-engine"));
}

#[test]
fn quit_that_is_ignored_ends_in_kill() {
    let engine = fake("--mode ignore-quit");
    let pid = engine.pid();
    let err = engine.quit(Duration::from_millis(100)).unwrap_err();
    assert!(matches!(err, UciError::Timeout { awaiting: Awaiting::Exit, .. }), "{err:?}");
    assert_ne!(process_exists(pid), Some(true));
}

#[test]
fn malformed_arguments_are_rejected_before_sending() {
    let mut engine = fake("");
    let bad = [
        engine.send("isready\nquit"),
        engine.position("startpos", &moves(&["e2e4 e7e5"])),
        engine.position("startpos", &moves(&["e2e4\nquit"])),
        engine.position("  ", &[]),
        engine.position("fen ", &[]),
        engine.set_option(" ", "1"),
        engine.go(&GoParams { searchmoves: moves(&["nonsense"]), ..GoParams::depth(1) }),
    ];
    for result in bad {
        assert!(matches!(result, Err(UciError::InvalidArgument(_))), "{result:?}");
    }
    // None of that reached the engine, which is still responsive.
    engine.is_ready(LIMIT).unwrap();
}

#[test]
fn stderr_is_captured() {
    let engine = fake("");
    let deadline = Instant::now() + LIMIT;
    while engine.stderr_tail().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(engine.stderr_tail(), ["bastion-test-engine starting in mode normal"]);

    let quiet = Engine::builder(exe()).stderr(StderrMode::Discard).spawn().unwrap();
    assert!(quiet.stderr_tail().is_empty());
}
