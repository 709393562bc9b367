//! Basic endgames against a bare king: the walk analysis agrees with the
//! rules, the placement planner neither hangs a piece nor allows stalemate,
//! and whole endgames are won. The limits are deterministic: the mate search
//! is node-limited and the turn time is far above what the planners use
//! (milliseconds), so the results do not depend on the machine's load.

use bastion_core::rng::Rng;
use bastion_core::{Bitboard, Color, Square};
use bastion_progressive::bench::EndgameCase;
use bastion_progressive::endgame::{bare_king_reply, king_reply, plan_series, KingReply};
use bastion_progressive::positions::random_endgame;
use bastion_progressive::selfplay::play_from;
use bastion_progressive::*;
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    Square::from_index(((b[1] - b'1') * 8 + (b[0] - b'a')) as usize)
}

fn bb(names: &[&str]) -> Bitboard {
    names.iter().fold(Bitboard::EMPTY, |b, n| b.with(sq(n)))
}

#[test]
fn walk_parity_in_a_two_square_pocket() {
    // Janko 2015, §6.2.1, Fig. 6.3: a king that has only b1 and a2 must end an odd
    // series on the other square, an even one where it started.
    for (steps, end) in [(9, "a2"), (10, "b1"), (1, "a2")] {
        match king_reply(sq("b1"), bb(&["b1", "a2"]), steps, false) {
            KingReply::Walks { ends, .. } => assert_eq!(ends, bb(&[end]), "{steps} steps"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn dead_ends_and_mate() {
    // In check on a1, the only escape b1 has no way on: stuck in a longer series.
    assert_eq!(king_reply(sq("a1"), bb(&["b1"]), 3, true), KingReply::Stalemated);
    assert!(matches!(king_reply(sq("a1"), bb(&["b1"]), 1, true), KingReply::Walks { .. }));
    assert_eq!(king_reply(sq("a1"), Bitboard::EMPTY, 4, true), KingReply::Mated);
    assert_eq!(king_reply(sq("a1"), Bitboard::EMPTY, 4, false), KingReply::Stalemated);
}

/// The bare king's series by the rules: positions after each move (the king
/// square is all that changes), and whether some walk gets stuck.
fn brute_force_reply(pos: &SeriesPosition) -> (Bitboard, Bitboard, bool) {
    let mut layer: HashMap<u64, SeriesPosition> = HashMap::from([(pos.key(), pos.clone())]);
    let mut reach = Bitboard::EMPTY;
    let mut stuck = false;
    let us = pos.side_to_move();
    for _ in 0..pos.moves_left() {
        let mut next = HashMap::new();
        for p in layer.values() {
            let mut any = false;
            p.for_each_child(|_, c| {
                any = true;
                reach = reach.with(c.board().king(us));
                next.insert(c.key(), c);
            });
            stuck |= !any;
        }
        layer = next;
    }
    let ends = layer.values().map(|p| p.board().king(us)).collect();
    (ends, reach, stuck)
}

#[test]
fn bare_king_reply_agrees_with_the_rules() {
    let mut rng = Rng::new(5);
    let mut checked = 0;
    for set in ["Q", "RB", "BB", "BN", "R", "RN"] {
        for attacker in [Color::White, Color::Black] {
            for _ in 0..6 {
                // A random placement, then the bare king to move in a 5..8 move series.
                let start = random_endgame(&mut rng, set, attacker, 9).unwrap();
                let len = 5 + rng.below(4) as u32;
                let board = start.board().play_null();
                let Ok(pos) = SeriesPosition::new(board, len, 0, Bitboard::EMPTY, 0, len, Rules::Italian) else {
                    continue;
                };
                let (ends, reach, stuck) = brute_force_reply(&pos);
                let pieces =
                    pos.board().occupied().without(pos.board().king(!attacker)).without(pos.board().king(attacker));
                match bare_king_reply(&pos).unwrap() {
                    // Taking a piece changes the attacked squares; the analysis
                    // only has to see that a piece can be taken (the planner
                    // never allows it).
                    KingReply::Walks { reach: r, .. } if (r & pieces).nonempty() => {
                        assert!((reach & pieces).nonempty(), "{}", pos.fen());
                    }
                    KingReply::Walks { ends: e, reach: r } => {
                        assert!(!stuck, "{}", pos.fen());
                        assert_eq!(e, ends, "{}", pos.fen());
                        assert_eq!(r, reach, "{}", pos.fen());
                    }
                    KingReply::Stalemated => assert!(stuck, "{}", pos.fen()),
                    KingReply::Mated => assert_eq!(pos.status(), Status::Checkmate),
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 50);
}

#[test]
fn planned_series_keep_pieces_and_avoid_stalemate() {
    let mut rng = Rng::new(11);
    for set in ["Q", "RB", "BB", "BN", "RN", "BBN"] {
        for attacker in [Color::White, Color::Black] {
            for _ in 0..4 {
                let turn = 7 + rng.below(8) as u32;
                let pos = random_endgame(&mut rng, set, attacker, turn).unwrap();
                let moves = plan_series(&pos, Instant::now() + Duration::from_secs(20)).expect("a plan");
                let end = pos.play_series(&moves).expect("a legal series");
                assert_eq!(moves.len() as u32, pos.moves_left());
                let pieces = end.board().color_bb(attacker).without(end.board().king(attacker));
                match bare_king_reply(&end).unwrap() {
                    KingReply::Walks { reach, .. } => {
                        assert!((reach & pieces).is_empty(), "a piece hangs: {}", end.fen())
                    }
                    KingReply::Mated => assert!(end.is_checkmate()),
                    KingReply::Stalemated => panic!("stalemate allowed: {}", end.fen()),
                }
            }
        }
    }
}

fn player() -> PlayerOptions {
    let mut p = PlayerOptions { time: Duration::from_secs(10), book: false, ..PlayerOptions::default() };
    p.mate.node_limit = Some(30_000);
    p
}

fn assert_won(name: &str, pos: SeriesPosition) {
    let attacker = pos.side_to_move();
    let fen = pos.fen();
    let limit = pos.turn() + 30;
    let p = player();
    let game = play_from(pos, &p, &p, limit, &mut |_| {});
    let r = game.result().expect("finished");
    assert_eq!(r.winner, Some(attacker), "{name} {fen}: {:?} {}", r.end, game.notation());
    assert_eq!(r.end, GameEnd::Checkmate);
}

#[test]
fn listed_endgames_are_won() {
    let text = include_str!("data/endgames.txt");
    let mut n = 0;
    for case in EndgameCase::parse_list(text).unwrap() {
        // K+B+N is in general won only by Black (Janko 2015, §6.2.1).
        if case.group == "KBNK W" {
            continue;
        }
        assert_won(&case.name, case.position);
        n += 1;
    }
    assert!(n >= 12);
}

#[test]
fn random_endgames_are_won() {
    let mut rng = Rng::new(3);
    // K+N+N only with Black (Janko 2015, §6.2.1); three pieces use the
    // planner with one piece standing still.
    let cases = [("RB", 2), ("BB", 2), ("Q", 1), ("RN", 1), ("BBN", 1)];
    for (set, n) in cases {
        for attacker in [Color::White, Color::Black] {
            for _ in 0..n {
                assert_won(set, random_endgame(&mut rng, set, attacker, 9).unwrap());
            }
        }
    }
    for _ in 0..2 {
        assert_won("NN", random_endgame(&mut rng, "NN", Color::Black, 10).unwrap());
    }
}
