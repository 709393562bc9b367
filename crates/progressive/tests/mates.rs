//! Mate finder checks: a quick sample of the self-play test set (every mate
//! confirmed by replay, found by each A* variant), agreement with the
//! exhaustive search on short series, and soundness on random positions.

use bastion_core::rng::Rng;
use bastion_progressive::testset;
use bastion_progressive::*;
use std::time::Duration;

const SET: &str = include_str!("data/mates.txt");

fn sample(per_len: usize) -> Vec<testset::MateCase> {
    let cases = testset::load(SET, Rules::Italian).expect("test set loads and every mate replays");
    testset::first_per_length(cases, per_len)
}

#[test]
fn the_test_set_is_well_formed() {
    let cases = testset::load(SET, Rules::Italian).unwrap();
    assert!(cases.len() >= 100, "{} positions", cases.len());
    for c in &cases {
        assert!((4..=12).contains(&c.position.series_len()));
        assert_eq!(c.position.played(), 0);
    }
}

/// A node budget instead of a clock, so that a loaded machine cannot fail these tests;
/// the clock only guards against a hang. The hardest case of the sample needs 3.6 M nodes.
fn budget(nodes: u64) -> MateOptions {
    MateOptions { node_limit: Some(nodes), time_limit: Duration::from_secs(600), ..Default::default() }
}

#[test]
fn default_finder_solves_a_sample() {
    for c in sample(3) {
        let r = find_mate(&c.position, &budget(20_000_000));
        assert!(r.found(), "no mate found in {}", c.position.fen());
        let end = c.position.play_series(r.moves.as_ref().unwrap()).unwrap();
        assert!(end.is_checkmate());
    }
}

#[test]
fn every_heuristic_finds_easy_mates() {
    for c in sample(1).into_iter().filter(|c| c.position.series_len() <= 5) {
        for h in Heuristic::ALL {
            for v in [Variant::AStar, Variant::BestFirst] {
                let opts = MateOptions { heuristic: h, variant: v, ..budget(2_000_000) };
                let r = find_mate(&c.position, &opts);
                assert!(r.found(), "{h:?}/{v:?} missed {}", c.position.fen());
            }
        }
    }
}

#[test]
fn exhaustive_agrees_on_short_series() {
    for c in sample(4).into_iter().filter(|c| c.position.series_len() <= 5) {
        let r = exhaustive_mate(&c.position, Duration::from_secs(30), None);
        assert_eq!(r.outcome, MateOutcome::Found, "{}", c.position.fen());
        assert!(c.position.play_series(r.moves.as_ref().unwrap()).unwrap().is_checkmate());
    }
}

#[test]
fn no_false_mates_in_random_positions() {
    // Random openings: whenever A* claims a mate it must replay as one, and
    // when the exhaustive search proves none, A* must not find one.
    let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
    for _ in 0..12 {
        let mut p = SeriesPosition::startpos(Rules::Italian);
        for _ in 0..3 {
            while p.status() == Status::Ongoing {
                let legal = p.legal_moves();
                p = p.play_unchecked(legal[rng.below(legal.len())]);
                if p.played() == 0 {
                    break;
                }
            }
        }
        if p.status() != Status::Ongoing {
            continue;
        }
        let ex = exhaustive_mate(&p, Duration::from_secs(20), None);
        let a = find_mate(&p, &MateOptions::with_time(Duration::from_secs(2)));
        if ex.outcome == MateOutcome::NoMate {
            assert!(!a.found(), "A* found a mate the exhaustive search rules out: {}", p.fen());
        }
        if let Some(m) = a.moves {
            assert!(p.play_series(&m).unwrap().is_checkmate());
        }
    }
}

#[test]
fn exhaustive_says_when_it_cannot_decide() {
    let case = sample(1).into_iter().find(|c| c.position.series_len() == 10).expect("a series of 10");
    let r = exhaustive_mate(&case.position, Duration::from_secs(5), Some(2_000));
    assert!(r.outcome == MateOutcome::Unknown || r.outcome == MateOutcome::Found);
    if r.outcome == MateOutcome::Found {
        assert!(case.position.play_series(r.moves.as_ref().unwrap()).unwrap().is_checkmate());
    }
    // Three moves from the start: proved mate-free.
    let p = SeriesPosition::startpos(Rules::Italian).with_series_len(3);
    assert_eq!(exhaustive_mate(&p, Duration::from_secs(30), None).outcome, MateOutcome::NoMate);
}

#[test]
fn scottish_mate_search() {
    // Under Scottish rules the Fig. 4.4 escape (capture with discovered check) is
    // legal, so the Italian mate is no mate there; the finder must agree.
    let w = SeriesPosition::from_fen("r7/k7/8/K7/8/8/8/1R6 w - - 0 1 1", None, Rules::Scottish).unwrap();
    let r = exhaustive_mate(&w, Duration::from_secs(5), None);
    assert_eq!(r.outcome, MateOutcome::NoMate);
    assert!(!find_mate(&w, &MateOptions::with_time(Duration::from_secs(1))).found());
}
