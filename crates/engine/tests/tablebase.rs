//! The tablebase hook: a fake prober stands in for real tables.

use bastion_core::{Move, Position, Role};
use bastion_engine::{Engine, EngineOptions, Limits, Score, TablebaseProbe, Wdl};
use std::sync::Arc;

/// Claims every position with at most `n` men is drawn (WDL only).
struct AllDrawn(u32);

impl TablebaseProbe for AllDrawn {
    fn max_pieces(&self) -> u32 {
        self.0
    }
    fn probe_wdl(&self, _pos: &Position) -> Option<Wdl> {
        Some(Wdl::Draw)
    }
}

/// Exact DTM for KQ v K positions where the lone king is on the edge: a made-up
/// "mate in 7 plies" for the queen side, to check that the search reports it.
struct FakeDtm;

impl TablebaseProbe for FakeDtm {
    fn max_pieces(&self) -> u32 {
        3
    }
    fn probe_wdl(&self, _pos: &Position) -> Option<Wdl> {
        None
    }
    fn probe_dtm(&self, pos: &Position) -> Option<i32> {
        let queen_side = pos.role_bb(Role::Queen).first().and_then(|sq| pos.piece_at(sq)).map(|p| p.color)?;
        Some(if queen_side == pos.side_to_move() { 7 } else { -6 })
    }
}

#[test]
fn wdl_prober_turns_won_endings_into_draws() {
    // Kxd2 wins a rook, but the "tables" say the resulting KR v K is drawn.
    let pos = Position::from_fen("4k3/8/8/8/8/8/3r4/R3K3 w - - 0 1").unwrap();
    let mut e = Engine::new(EngineOptions { hash_mb: 4, ..EngineOptions::default() });
    let r = e.search(&pos, &[], &Limits::depth(6), &mut |_| {});
    assert!(matches!(r.score, Score::Cp(c) if c > 300), "{:?}", r.score);
    e.set_tablebase(Some(Arc::new(AllDrawn(3))));
    e.clear();
    let mut hits = 0;
    let r = e.search(&pos, &[], &Limits::depth(6), &mut |i| hits = hits.max(i.tbhits));
    assert!(hits > 0);
    assert!(matches!(r.score, Score::Cp(c) if c < 300), "{:?}", r.score);
}

#[test]
fn dtm_prober_gives_exact_mate_scores() {
    let pos = Position::from_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1").unwrap();
    let mut e = Engine::new(EngineOptions { hash_mb: 4, ..EngineOptions::default() });
    e.set_tablebase(Some(Arc::new(FakeDtm)));
    let r = e.search(&pos, &[], &Limits::depth(3), &mut |_| {});
    // Every move leads to a position where Black "is mated in 6 plies": mate in 7 plies = 4 moves.
    assert_eq!(r.score, Score::Mate(4));
    assert_ne!(r.best, Some(Move::NULL));
}
