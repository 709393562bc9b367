//! Samples random positions of small endings, labels them with Bastion's own DTM
//! generator and prints them in the fortress detector's labelled-set format
//! (`label<TAB>id<TAB>FEN<TAB>source`): tablebase draws as `fortress`, wins of the
//! side named first in the material as `progress`. Used to check the engine's endgame
//! knowledge (through `bastion fortress --suite`) on positions nobody picked by hand.
//!
//! ```text
//! cargo run --release -p bastion-engine --example endgame_sample -- 15 0 KRKN KRKB KBPK KPK KQKP
//! cargo run --release -p bastion-engine --example endgame_sample -- 40 21 KRKN
//! ```
//! Arguments: positions per (material, label), the fewest plies to mate a sampled win
//! must have (0 = any), then the materials. Positions are skipped when the side to
//! move is in check, has no move, or can capture at once (so the first move is not a
//! free capture).
//! The seed is fixed: the same arguments give the same set.

use bastion_core::{Color, Piece, Position, Square};
use bastion_tablebase::gen::generate_all_into;
use bastion_tablebase::{Dtm, Material, TableSet};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return Err("usage: endgame_sample PER_CLASS MIN_WIN_PLIES MATERIAL...".into());
    }
    let per_class: usize = args[0].parse()?;
    let min_plies: u16 = args[1].parse()?;
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    println!("# Random tablebase-labelled positions: endgame_sample {}", args.join(" "));
    for name in &args[2..] {
        let m = Material::parse(name)?;
        let mut tables = TableSet::new();
        generate_all_into(std::slice::from_ref(&m), &mut tables);
        let t = tables.get(&m).ok_or("no table")?;
        let ix = t.indexer();
        let pieces: Vec<Piece> = ix.pieces().to_vec();
        let mut sq = vec![0u8; pieces.len()];
        let (mut draws, mut wins) = (0, 0);
        let mut tries = 0u64;
        while (draws < per_class || wins < per_class) && tries < 10_000_000 {
            tries += 1;
            ix.decode(next() % ix.size(), &mut sq);
            let stm = if next() % 2 == 0 { Color::White } else { Color::Black };
            let placed: Vec<(Square, Piece)> =
                sq.iter().zip(&pieces).map(|(&s, &p)| (Square::from_index(s as usize), p)).collect();
            let Ok(pos) = Position::from_pieces(&placed, stm) else { continue };
            let moves = pos.legal_moves();
            if pos.in_check() || moves.is_empty() || moves.iter().any(|mv| pos.piece_at(mv.to()).is_some()) {
                continue;
            }
            let Ok(Some(dtm)) = tables.probe(&pos) else { continue };
            let white_wins = match (dtm, stm) {
                (Dtm::Win(n), Color::White) | (Dtm::Loss(n), Color::Black) => Some(n),
                _ => None,
            };
            let (label, class, n) = match (dtm, white_wins) {
                (Dtm::Draw, _) if draws < per_class => ("fortress", "D", &mut draws),
                (_, Some(p)) if p >= min_plies && wins < per_class => ("progress", "W", &mut wins),
                _ => continue,
            };
            println!("{label}\t{}_{class}_{n}\t{}\tBastion DTM: {dtm:?}", name.to_lowercase(), pos.fen());
            *n += 1;
        }
    }
    Ok(())
}
