//! Rule cases from Janko 2015 (§2.3, Figs. 2.1–2.4; §4.1.5, Fig. 4.4), the
//! game of its Table 2.1 (§2.3) replayed move by move, and the progressive specials
//! (en passant, stalemate inside a series, the 10-turn rule, FEN round trips).

use bastion_progressive::*;
use std::time::Duration;

fn pos(fen: &str, series: Option<u32>) -> SeriesPosition {
    SeriesPosition::from_fen(fen, series, Rules::Italian).unwrap()
}

fn play_all(game: &mut Game, text: &str) {
    for t in text.split_whitespace() {
        game.play_text(t).unwrap_or_else(|e| panic!("{t}: {e} in {}", game.position().fen()));
    }
}

/// Slovenian piece letters (K, D, T, L, S) to English (K, Q, R, B, N).
fn english(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'D' => 'Q',
            'T' => 'R',
            'L' => 'B',
            'S' => 'N',
            c => c,
        })
        .collect()
}

#[test]
fn turn_lengths_grow() {
    let mut g = Game::new(Rules::Italian);
    assert_eq!(g.position().series_len(), 1);
    play_all(&mut g, "e4");
    assert_eq!(g.position().series_len(), 2);
    assert_eq!(g.position().side_to_move(), bastion_core::Color::Black);
    play_all(&mut g, "d5 Nf6");
    assert_eq!(g.position().series_len(), 3);
    assert_eq!(g.position().turn(), 3);
}

#[test]
fn figure_2_1_scholars_threat_and_the_defence() {
    // After 1.e4 a passive reply allows 3.Bc4 Qh5 Qxf7#.
    let mut g = Game::new(Rules::Italian);
    play_all(&mut g, "e4 a6 a5");
    let r = exhaustive_mate(g.position(), Duration::from_secs(30), None);
    assert_eq!(r.outcome, MateOutcome::Found);
    let mut g2 = g.clone();
    play_all(&mut g2, "Bc4 Qh5 Qxf7");
    assert_eq!(g2.result().map(|r| r.end), Some(GameEnd::Checkmate));
    // 2.d5 Nf6 stops every mate in three: proved by exhaustive search.
    let mut g = Game::new(Rules::Italian);
    play_all(&mut g, "e4 d5 Nf6");
    let r = exhaustive_mate(g.position(), Duration::from_secs(30), None);
    assert_eq!(r.outcome, MateOutcome::NoMate);
    // The king is never captured: Qh5 Qxf7+ is a check before the last move.
    let mut g = Game::new(Rules::Italian);
    play_all(&mut g, "e4 a6 a5");
    let p = g.position().clone();
    let p = p.play(p.parse_move("Qh5").unwrap()).unwrap();
    assert!(p.parse_move("Qxf7").is_err(), "an early check must be illegal");
}

#[test]
fn figure_2_2_to_2_4() {
    let mut g = Game::new(Rules::Italian);
    play_all(&mut g, "e4 d5 Nf6 Nf3 exd5 Bb5");
    assert_eq!(g.notation(), "1.e4 2.d5 Nf6 3.Nf3 exd5 Bb5+");
    assert!(g.position().in_check());
    let fig22 = g.clone();
    // Black must escape the check with the first move: every legal first move does.
    let start = fig22.position().clone();
    for m in start.legal_moves().iter() {
        assert!(
            !start.board().play(*m).is_attacked_by(
                start.board().king(bastion_core::Color::Black),
                bastion_core::Color::White,
                start.board().play(*m).occupied()
            ) || start.board().role_at(m.from()) == Some(bastion_core::Role::King)
        );
    }
    assert!(start.parse_move("c6").is_ok());
    assert!(start.parse_move("a6").is_err(), "a6 ignores the check");
    // Figure 2.3: the greedy series loses to 5.Ne5 g4 g5 g6 gxf7#.
    let mut g = fig22.clone();
    play_all(&mut g, &english("Lc8-d7 Ld7xb5 Lb5-e2 Le2xd1"));
    let before_mate = g.position().clone();
    play_all(&mut g, &english("Sf3-e5 g2-g4 g4-g5 g5-g6 g6xf7"));
    assert_eq!(g.result().unwrap().end, GameEnd::Checkmate);
    assert_eq!(g.result().unwrap().winner, Some(bastion_core::Color::White));
    assert!(g.notation().ends_with("5.Ne5 g4 g5 g6 gxf7#"), "{}", g.notation());
    let r = find_mate(&before_mate, &MateOptions::with_time(Duration::from_secs(10)));
    assert!(r.found());
    before_mate.play_series(r.moves.as_ref().unwrap()).unwrap();
    // Figure 2.4: the better reply 4.c6 Ng4 Qb6 Qxf2#.
    let mut g = fig22.clone();
    play_all(&mut g, &english("c7-c6 Sf6-g4 Dd8-b6 Db6xf2"));
    assert_eq!(g.result().unwrap().winner, Some(bastion_core::Color::Black));
    let r = find_mate(fig22.position(), &MateOptions::with_time(Duration::from_secs(10)));
    assert!(r.found());
    assert!(fig22.position().play_series(r.moves.as_ref().unwrap()).unwrap().is_checkmate());
}

#[test]
fn figure_4_4_italian_mate() {
    // The black king in check can only take the rook, which would uncover
    // its own rook's check on the white king: illegal as a first move.
    let p = pos("r7/kR6/8/K7/8/8/8/8 b - - 0 1", Some(4));
    assert!(p.in_check());
    assert_eq!(p.status(), Status::Checkmate);
    // Scottish rules: the capture gives check and simply ends the series.
    let s = p.with_rules(Rules::Scottish);
    assert_eq!(s.status(), Status::Ongoing);
    assert_eq!(s.legal_moves().len(), 1);
    // A series of one move may end with check, so the escape is legal.
    let one = pos("r7/kR6/8/K7/8/8/8/8 b - - 0 1", Some(1));
    assert_eq!(one.status(), Status::Ongoing);
    // And White finds the Italian mate with a one-move series.
    let w = pos("r7/k7/8/K7/8/8/8/1R6 w - - 0 1", Some(1));
    let r = find_mate(&w, &MateOptions::default());
    assert!(r.found());
    assert_eq!(w.move_text(r.moves.unwrap()[0]), "Rb7#");
}

#[test]
fn table_2_1_game_replays() {
    let text = "1.d2-d4
2.d7-d5 c7-c6
3.Lc1-g5 Lg5xe7 Le7xd8
4.Lc8-f5 Lf5xc2 Lc2xd1 Ke8xd8
5.Ke1xd1 e2-e4 e4xd5 Kd1-c2 b2-b4
6.c6xd5 Sb8-c6 Kd8-d7 h7-h5 Ta8-c8 Sc6xb4+
7.Kc2-b2 Sb1-d2 Ta1-c1 Tc1xc8 Tc8xf8 Tf8xg8 Tg8xh8
8.h5-h4 h4-h3 h3xg2 g2xh1=D Dh1xh2 Dh2xh8 f7-f6 Sb4xa2
9.Sg1-h3 Sh3-f4 Sf4-g6 Lf1-a6 La6xb7 Lb7xd5 Ld5xa2 Sg6xh8 Sh8-g6";
    let mut g = Game::new(Rules::Italian);
    for line in text.lines() {
        let (num, moves) = line.split_once('.').unwrap();
        assert_eq!(g.position().turn(), num.parse::<u32>().unwrap());
        let moves: Vec<&str> = moves.split_whitespace().collect();
        assert_eq!(moves.len() as u32, g.position().series_len());
        for m in moves {
            g.play_text(&english(m)).unwrap_or_else(|e| panic!("turn {num} {m}: {e}"));
        }
    }
    assert!(g.result().is_none(), "Black resigned; the game itself was not over");
    assert_eq!(g.position().turn(), 10);
    assert!(g.notation().contains("6.cxd5 Nc6 Kd7 h5 Rc8 Nxb4+ 7.Kb2"), "{}", g.notation());
    assert!(g.notation().contains("gxh1=Q"));
    // The record loads back to the same game.
    let rec = g.record(&[("Event", "Table 2.1".to_string())]);
    let back = Game::from_record(&rec).unwrap();
    assert_eq!(back.notation(), g.notation());
    assert_eq!(back.position(), g.position());
}

#[test]
fn en_passant_only_with_the_first_move() {
    // Black to play d5 and f5 (and a quiet move); White's pawns on c5 and e5.
    let p = pos("4k3/3p1p2/8/2P1P3/8/8/8/4K3 b - - 0 1", Some(4));
    let p = p.play_series(&[p.parse_move("d5").unwrap()]).unwrap();
    let p = p.play(p.parse_move("f5").unwrap()).unwrap();
    let p = p.play(p.parse_move("Ke7").unwrap()).unwrap();
    let p = p.play(p.parse_move("Ke6").unwrap()).unwrap();
    assert_eq!(p.side_to_move(), bastion_core::Color::White);
    assert_eq!(p.ep_squares().count(), 2);
    let caps: Vec<String> =
        p.legal_moves().iter().filter(|m| m.is_en_passant()).map(|m| p.board().to_uci(*m)).collect();
    assert_eq!(caps.len(), 3, "{caps:?}");
    // After a different first move the chance is gone.
    let q = p.play(p.parse_move("Kd1").unwrap()).unwrap();
    assert!(q.legal_moves().iter().all(|m| !m.is_en_passant()));
    // A double-stepped pawn that moved on cannot be taken en passant.
    let p = pos("4k3/3p4/8/2P5/8/8/8/4K3 b - - 0 1", Some(2));
    let p = p.play(p.parse_move("d5").unwrap()).unwrap();
    let p = p.play(p.parse_move("d4").unwrap()).unwrap();
    assert!(p.legal_moves().iter().all(|m| !m.is_en_passant()));
    // FEN keeps the squares.
    let p = pos("4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 5 5", None);
    assert_eq!(p.fen(), "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 5 5");
    assert!(SeriesPosition::from_fen("4k3/8/8/2P1P3/8/8/8/4K3 w - d6 0 5 5", None, Rules::Italian).is_err());
    assert!(SeriesPosition::from_fen("4k3/8/8/2PpP3/8/8/8/4K3 w - d3 0 5 5", None, Rules::Italian).is_err());
}

#[test]
fn stalemate_inside_a_series_is_a_draw() {
    // White's only moves: c3 once; then nothing (king boxed in by the queen).
    let p = pos("4k3/8/8/8/2p5/8/2P2q2/7K w - - 0 1", Some(2));
    assert_eq!(p.status(), Status::Ongoing);
    let q = p.play(p.parse_move("c3").unwrap()).unwrap();
    assert_eq!(q.played(), 1);
    assert_eq!(q.status(), Status::Stalemate);
    let mut g = Game::from_position(p);
    g.play_text("c3").unwrap();
    assert_eq!(g.result().unwrap().end, GameEnd::Stalemate);
    assert_eq!(g.result().unwrap().winner, None);
}

#[test]
fn ten_turn_rule() {
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 9 21 21", None);
    assert_eq!(p.status(), Status::Ongoing);
    let mut g = Game::from_position(p.clone());
    // Shuffle until the series ends, then the clock reaches ten.
    for _ in 0..21 {
        assert!(g.result().is_none());
        let m = g.position().legal_moves()[0];
        g.play(m).unwrap();
    }
    assert_eq!(g.result().unwrap().end, GameEnd::TenTurnRule);
    // A capture or pawn move resets the clock.
    let p = pos("4k3/8/8/8/8/8/P7/4K3 w - - 9 3 3", None);
    let q = p.play_series(&[p.parse_move("a3").unwrap(), p.parse_move("Kd1").unwrap()]).unwrap();
    let q = q.play(q.parse_move("Kc1").unwrap()).unwrap();
    assert_eq!(q.quiet_turns(), 0);
}

#[test]
fn progressive_fen_round_trip_mid_series() {
    let mut g = Game::new(Rules::Italian);
    play_all(&mut g, "e4 d5 Nf6 Nf3 exd5");
    let p = g.position().clone();
    assert_eq!(p.played(), 2);
    let back = SeriesPosition::from_fen(&p.fen(), None, Rules::Italian).unwrap();
    assert_eq!(back.fen(), p.fen());
    assert_eq!(back.legal_moves().len(), p.legal_moves().len());
    // Plain FEN needs the series length.
    assert!(SeriesPosition::from_fen(bastion_core::fen::STARTPOS, None, Rules::Italian).is_err());
    assert!(SeriesPosition::from_fen(bastion_core::fen::STARTPOS, Some(3), Rules::Italian).is_ok());
    assert!(SeriesPosition::from_fen("8/8/8 w - -", Some(3), Rules::Italian).is_err());
}

#[test]
fn scottish_check_ends_the_series() {
    let p = SeriesPosition::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 3 3", None, Rules::Scottish).unwrap();
    let q = p.play(p.parse_move("Ra8").unwrap()).unwrap();
    assert_eq!(q.played(), 0);
    assert_eq!(q.side_to_move(), bastion_core::Color::Black);
    assert_eq!(q.series_len(), 4);
    let i = SeriesPosition::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 3 3", None, Rules::Italian).unwrap();
    assert!(i.parse_move("Ra8").is_err());
}

#[test]
fn series_enumeration_counts() {
    // Turn 2 from 1.e4: every pair of black moves without early check.
    let mut g = Game::new(Rules::Italian);
    play_all(&mut g, "e4");
    let all = legal_series(g.position(), usize::MAX);
    let (n, distinct) = count_series(g.position());
    assert_eq!(all.len() as u64, n);
    assert!(distinct < n, "transpositions exist");
    // Brute force with the core alone: 20 × (moves after each) minus nothing
    // (no check is possible in two black moves from the start).
    let mut brute = 0;
    let b = g.position().board();
    for &m in b.legal_moves().iter() {
        let after = b.play(m).play_null();
        brute += after.legal_moves().len();
    }
    assert_eq!(n as usize, brute);
}

#[test]
fn record_from_a_position_inside_a_series() {
    let mut g = Game::new(Rules::Italian);
    play_all(&mut g, "e4 d5 Nf6 Nf3");
    let mut g2 = Game::from_position(g.position().clone());
    play_all(&mut g2, "exd5 Bb5 c6");
    let rec = g2.record(&[]);
    assert!(rec.contains("[FEN \""), "{rec}");
    let back = Game::from_record(&rec).unwrap();
    assert_eq!(back.position(), g2.position());
    assert!(Game::from_record("1.e4 2.d5 3.Nf3").is_err(), "turn 2 is incomplete");
    assert!(Game::from_record("1.e4 2.d5 Qxd2").is_err(), "illegal move");
    assert!(Game::from_record("1.e4 3.d5 Nf6").is_err(), "wrong turn number");
}
