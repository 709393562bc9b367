//! The KPK bitbase (used by the evaluation) against Bastion's own DTM tablebase:
//! every legal position, both colours of the pawn side, both sides to move.

use bastion_core::{Color, Piece, Position, Role, Square};
use bastion_engine::eval::kpk;
use bastion_tablebase::gen::generate_all_into;
use bastion_tablebase::{Dtm, Material, TableSet};

#[test]
fn kpk_bitbase_matches_the_dtm_tablebase_everywhere() {
    for name in ["KPK", "KKP"] {
        let m = Material::parse(name).unwrap();
        let mut tables = TableSet::new();
        generate_all_into(std::slice::from_ref(&m), &mut tables);
        let t = tables.get(&m).unwrap();
        let ix = t.indexer();
        let pieces: Vec<Piece> = ix.pieces().to_vec();
        let mut sq = vec![0u8; pieces.len()];
        let (mut checked, mut wins) = (0, 0);
        for idx in 0..ix.size() {
            ix.decode(idx, &mut sq);
            let placed: Vec<(Square, Piece)> =
                sq.iter().zip(&pieces).map(|(&s, &p)| (Square::from_index(s as usize), p)).collect();
            for stm in [Color::White, Color::Black] {
                let Ok(pos) = Position::from_pieces(&placed, stm) else { continue };
                let Some(dtm) = tables.probe(&pos).unwrap() else { continue };
                let strong = if pos.pieces(Color::White, Role::Pawn).nonempty() { Color::White } else { Color::Black };
                let tb_win = matches!((dtm, stm == strong), (Dtm::Win(_), true) | (Dtm::Loss(_), false));
                assert_eq!(kpk::probe(&pos, strong), Some(tb_win), "{}: {dtm:?}", pos.fen());
                checked += 1;
                wins += tb_win as usize;
            }
        }
        // Both outcomes are common: the check is not vacuous.
        assert!(checked > 150_000 && wins > 50_000 && checked - wins > 50_000, "{name}: {checked} {wins}");
    }
}
