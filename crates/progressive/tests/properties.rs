//! Property tests: random games played with the series rules never contain a
//! check before the last move of a series (Italian), every generated series
//! replays legally move by move, and the FEN round-trips at every step.

use bastion_core::rng::Rng;
use bastion_progressive::*;
use proptest::prelude::*;

fn random_game(seed: u64, turns: usize, rules: Rules) -> Vec<(SeriesPosition, Vec<bastion_core::Move>)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut p = SeriesPosition::startpos(rules);
    for _ in 0..turns {
        if p.status() != Status::Ongoing {
            break;
        }
        let start = p.clone();
        let mut moves = Vec::new();
        loop {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())];
            moves.push(m);
            p = p.play_unchecked(m);
            if p.played() == 0 {
                break;
            }
        }
        out.push((start, moves));
        if p.played() != 0 {
            break; // stuck inside a series: drawn
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn no_early_check_and_legal_replay(seed in any::<u64>()) {
        for (start, moves) in random_game(seed, 12, Rules::Italian) {
            let mut p = start.clone();
            for (i, &m) in moves.iter().enumerate() {
                let after = p.board().play(m);
                if i + 1 < start.series_len() as usize {
                    prop_assert!(!after.in_check(), "early check at move {} of {}", i + 1, start.fen());
                }
                // The FEN round-trips inside the series.
                let back = SeriesPosition::from_fen(&p.fen(), None, Rules::Italian).unwrap();
                prop_assert_eq!(back.fen(), p.fen());
                prop_assert_eq!(&back, &p);
                prop_assert_eq!(back.legal_moves().len(), p.legal_moves().len());
                p = p.play(m).unwrap();
            }
            // The series text parses back into the same moves.
            let text = series_text(&start, &moves);
            let mut q = start.clone();
            for tok in text.split_whitespace() {
                let tok = tok.split_once('.').map_or(tok, |(_, t)| t);
                let m = q.parse_move(tok).unwrap();
                q = q.play(m).unwrap();
            }
            prop_assert_eq!(q.fen(), p.fen());
        }
    }

    #[test]
    fn scottish_checks_end_series(seed in any::<u64>()) {
        for (start, moves) in random_game(seed, 10, Rules::Scottish) {
            let mut p = start.clone();
            for (i, &m) in moves.iter().enumerate() {
                let checks = p.board().play(m).in_check();
                p = p.play(m).unwrap();
                if checks {
                    prop_assert_eq!(i + 1, moves.len(), "a check must end the series");
                    prop_assert_eq!(p.played(), 0);
                }
            }
        }
    }

    #[test]
    fn enumerated_series_are_legal(seed in any::<u64>()) {
        // Take a random early-game position and enumerate (a bounded number of) its series.
        let game = random_game(seed, 3, Rules::Italian);
        let Some((start, _)) = game.last() else { return Ok(()); };
        let start = start.with_series_len(start.series_len().min(3));
        let mut count = 0;
        for_each_series(&start, &mut |moves, end, how| {
            count += 1;
            let replay = start.play_series(moves).expect("enumerated series replays");
            assert_eq!(replay.fen(), end.fen());
            if how == SeriesEnd::Complete {
                assert_eq!(moves.len() as u32, start.moves_left());
            }
            let mut p = start.clone();
            for (i, &m) in moves.iter().enumerate() {
                if i + 1 < moves.len() {
                    assert!(!p.board().play(m).in_check());
                }
                p = p.play_unchecked(m);
            }
            count < 20_000
        });
        prop_assert!(count > 0 || start.status() != Status::Ongoing);
    }
}
