//! Property tests over random games: make/unmake restores everything, the
//! incremental keys equal keys computed from scratch, FEN round-trips, the
//! staged generators partition the legal moves, and playing with check info
//! equals playing without.

use bastion_core::castling::CastlingMode;
use bastion_core::{Color, Game, GenType, MoveList, Position};
use proptest::prelude::*;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// Index in [`STARTS`] of the Chess960 position.
const CHESS960_START: usize = 4;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_keep_invariants(start in 0..STARTS.len(), choices in proptest::collection::vec(any::<u32>(), 0..150)) {
        // The Chess960 start has rights only X-FEN can express; the others read the same either way.
        let mode = if start == CHESS960_START { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let mut game = Game::new(Position::from_fen_with(STARTS[start], mode).unwrap());
        let mut snapshots = vec![game.position().clone()];
        for c in choices {
            let pos = game.position().clone();
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Staged generation partitions the legal moves.
            let (mut noisy, mut quiet) = (MoveList::new(), MoveList::new());
            pos.generate_into(GenType::Noisy, &mut noisy);
            pos.generate_into(GenType::Quiet, &mut quiet);
            prop_assert_eq!(noisy.len() + quiet.len(), moves.len());
            for m in noisy.iter().chain(quiet.iter()) {
                prop_assert!(moves.contains(m));
                prop_assert!(pos.is_legal(*m));
                prop_assert_eq!(pos.gives_check(*m), pos.play(*m).in_check(), "{} {:?}", pos.fen(), m);
            }
            prop_assert_eq!(moves.len() as u64, pos.count_legal_moves());
            // Playing with the position's check info gives the same position.
            let ci = pos.check_info();
            for &m in moves.iter() {
                let mut with = pos.clone();
                with.play_unchecked_with(m, &ci);
                prop_assert_eq!(&with, &pos.play(m), "{} {:?}", pos.fen(), m);
            }

            let m = moves[c as usize % moves.len()];
            game.make(m);
            let now = game.position();
            let keys = now.keys_from_scratch();
            prop_assert_eq!(now.key(), keys.key);
            prop_assert_eq!(now.pawn_key(), keys.pawn);
            prop_assert_eq!(now.material_key(), keys.material);
            prop_assert_eq!([now.non_pawn_key(Color::White), now.non_pawn_key(Color::Black)], keys.non_pawn);
            let reparsed = Position::from_fen_with(&now.fen(), mode).unwrap();
            prop_assert_eq!(&reparsed, now);
            prop_assert_eq!(&now.mirrored().mirrored(), now);
            snapshots.push(now.clone());
        }
        // Unmake everything: every intermediate position comes back exactly.
        while let Some(expected) = snapshots.pop() {
            prop_assert_eq!(game.position(), &expected);
            if game.unmake().is_none() {
                break;
            }
        }
        prop_assert!(snapshots.is_empty());
    }
}

/// The non-pawn keys follow each side's pieces other than pawns and nothing else.
#[test]
fn non_pawn_keys_follow_only_their_sides_pieces() {
    let start = Position::startpos();
    let keys = |p: &Position| [p.non_pawn_key(Color::White), p.non_pawn_key(Color::Black)];
    let pawn_push = start.play(start.parse_uci("e2e4").unwrap());
    assert_eq!(keys(&pawn_push), keys(&start), "a pawn move leaves both");
    assert_ne!(pawn_push.pawn_key(), start.pawn_key());
    let knight = start.play(start.parse_uci("g1f3").unwrap());
    assert_ne!(knight.non_pawn_key(Color::White), start.non_pawn_key(Color::White));
    assert_eq!(knight.non_pawn_key(Color::Black), start.non_pawn_key(Color::Black));
    assert_eq!(knight.pawn_key(), start.pawn_key());
    assert_ne!(start.non_pawn_key(Color::White), start.non_pawn_key(Color::Black));
}
