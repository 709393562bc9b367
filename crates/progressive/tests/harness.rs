//! The measuring harness behind `bastion progressive`: self-play matches,
//! the mate benchmark, the endgame benchmark and test-set collection. Limits
//! are small; the checks are on structure (counts add up, errors name their
//! line), not on strength.

use bastion_core::Color;
use bastion_progressive::bench::{calibrate, run_endgames, run_mates, EndgameCase};
use bastion_progressive::selfplay::{self, MatchConfig};
use bastion_progressive::testset::{self, GenerateConfig, MateCase};
use bastion_progressive::*;
use std::time::Duration;

const SET: &str = include_str!("data/mates.txt");

#[test]
fn a_match_counts_every_game() {
    let p: PlayerOptions = "depth=0,time=50ms".parse().unwrap();
    let config = MatchConfig { a: p.clone(), b: p, games: 2, max_turns: 4, seed: 1, rules: Rules::Italian };
    let mut seen = Vec::new();
    let report = selfplay::run(&config, |g| -> Result<(), ()> {
        seen.push((g.index, g.a_white));
        Ok(())
    })
    .unwrap();
    assert_eq!(seen, [(0, true), (1, false)]);
    let s = &report.stats;
    assert_eq!((s.games, s.wins + s.draws + s.losses), (2, 2));
    assert_eq!(report.openings.values().map(|o| o.games).sum::<u32>(), 2);
    assert!((0.0..=1.0).contains(&report.score_a));
}

#[test]
fn a_match_stops_at_the_first_error() {
    let p: PlayerOptions = "depth=0,time=20ms".parse().unwrap();
    let config = MatchConfig { a: p.clone(), b: p, games: 5, max_turns: 2, seed: 1, rules: Rules::Italian };
    let mut calls = 0;
    let r = selfplay::run(&config, |_| {
        calls += 1;
        Err("stop")
    });
    assert_eq!((r.unwrap_err(), calls), ("stop", 1));
}

#[test]
fn the_mate_benchmark_tables_every_position() {
    let cases = testset::first_per_length(testset::load(SET, Rules::Italian).unwrap(), 1);
    assert_eq!(cases.len(), 9);
    let opts = MateOptions { node_limit: Some(200_000), ..MateOptions::with_time(Duration::from_secs(20)) };
    let b = run_mates(&cases[..4], &opts, &mut |_, _, _| {}).unwrap();
    assert_eq!(b.total.positions, 4);
    assert_eq!(b.by_series_length.values().map(|s| s.positions).sum::<usize>(), 4);
    assert!(b.total.found <= 4 && b.slowest_ms.len() == 4);
    assert_eq!(b.found_within_seconds.len(), 9);
    let x = calibrate(&cases);
    assert_eq!(x.len(), Heuristic::ALL.len());
    assert!(x.iter().all(|(_, v)| v.is_finite()));
}

#[test]
fn endgame_lists_name_their_bad_lines() {
    let text = "# comment\nKQK W d5 ; 8/8/8/3k4/8/8/7Q/4K3 w - - 0 9 9\n\nno separator\n";
    match EndgameCase::parse_list(text) {
        Err(ProgressiveError::AtLine { line: 4, .. }) => {}
        other => panic!("{other:?}"),
    }
    let cases = EndgameCase::parse_list("KQK W d5 ; 8/8/8/3k4/8/8/7Q/4K3 w - - 0 9 9").unwrap();
    assert_eq!((cases[0].group.as_str(), cases[0].name.as_str()), ("KQK W", "KQK W d5"));
    assert!(EndgameCase::random(&["QX"], 1, 9, 1).is_err());
    assert!(EndgameCase::random(&["QX"], 0, 9, 1).unwrap().is_empty());
}

#[test]
fn random_endgames_are_named_and_played() {
    let cases = EndgameCase::random(&["q"], 1, 9, 5).unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["KQK W 1", "KQK B 1"]);
    assert_eq!(cases[1].position.side_to_move(), Color::Black);
    let mut p: PlayerOptions = "time=2s,book=off,noise=0".parse().unwrap();
    p.mate.node_limit = Some(30_000);
    let mut played = 0;
    let report = run_endgames(cases, &p, &p, &mut |_, _, _| played += 1);
    assert_eq!((played, report.games.len(), report.groups.len()), (2, 2, 2));
    assert!(report.games.iter().all(|g| g.won), "{:?}", report.games);
}

#[test]
fn collection_writes_only_confirmed_mates() {
    let config = GenerateConfig {
        per_length: 1,
        min_len: 4,
        max_len: 6,
        scan_time: Duration::from_millis(100),
        player_time: Duration::from_millis(20),
        games: 1,
        skip: 0.85,
        weak_opening: 0.5,
        random_opening: 0.25,
        noise: 2.0,
    };
    let mut found: Vec<MateCase> = Vec::new();
    let mut games = 0;
    testset::generate::<ProgressiveError>(
        &config,
        &[],
        testset::resume_seed(0, 0),
        |c| {
            found.push(c.clone());
            Ok(())
        },
        |p| games = p.game + 1,
    )
    .unwrap();
    assert_eq!(games, 1);
    for c in &found {
        assert!((4..=6).contains(&c.position.series_len()));
        assert!(MateCase::parse(&c.line(), Rules::Italian).is_ok());
    }
}
