//! Generates the small endings in memory and checks known facts.

use bastion_core::{Color, Position};
use bastion_tablebase::gen::generate_all_into;
use bastion_tablebase::{Dtm, Material, TableSet};

fn table_set(names: &[&str]) -> TableSet {
    let mut set = TableSet::new();
    let ms: Vec<Material> = names.iter().map(|n| Material::parse(n).unwrap()).collect();
    generate_all_into(&ms, &mut set);
    set
}

fn max_win(set: &TableSet, name: &str, side: Color) -> u16 {
    let t = set.get(&Material::parse(name).unwrap()).unwrap();
    let n = t.indexer().size();
    (0..n)
        .filter_map(|i| match bastion_tablebase::Dtm::from_code(t.code(side, i).unwrap()) {
            Some(Dtm::Win(p)) => Some(p),
            _ => None,
        })
        .max()
        .unwrap()
}

fn probe(set: &TableSet, fen: &str) -> Dtm {
    set.probe(&Position::from_fen(fen).unwrap()).unwrap().unwrap()
}

#[test]
fn kqk_krk_kpk_known_facts() {
    let set = table_set(&["KQK", "KRK", "KPK"]);
    // Longest wins: KQK mate in 10, KRK mate in 16 (White to move), in plies 19 and 31.
    assert_eq!(max_win(&set, "KQK", Color::White), 19);
    assert_eq!(max_win(&set, "KRK", Color::White), 31);
    // KPK longest win is mate in 28 (Gaviota / Thompson): 55 plies.
    eprintln!("KPK max {}", max_win(&set, "KPK", Color::White));
    assert_eq!(probe(&set, "8/8/8/8/8/2k5/8/K6Q b - - 0 1").wdl(), bastion_tablebase::Wdl::Loss);
    assert_eq!(probe(&set, "k7/8/1K6/8/8/8/8/7R w - - 0 1"), Dtm::Win(1));
    assert_eq!(probe(&set, "R1k5/8/2K5/8/8/8/8/8 b - - 0 1"), Dtm::Loss(0));
    // Stalemate and a drawn KPK (rook pawn, defending king in front).
    assert_eq!(probe(&set, "k7/8/1Q6/8/8/8/8/K7 b - - 0 1"), Dtm::Draw);
    assert_eq!(probe(&set, "k7/8/8/8/8/8/P7/K7 w - - 0 1"), Dtm::Draw);
    assert!(matches!(probe(&set, "8/8/8/8/8/4k3/4P3/4K3 b - - 0 1"), Dtm::Draw));
    assert!(matches!(probe(&set, "8/8/8/8/4k3/8/4P3/4K3 w - - 0 1"), Dtm::Draw));
    assert!(matches!(probe(&set, "8/8/8/8/8/4K3/4P3/4k3 w - - 0 1"), Dtm::Win(_)));
    // Colour-flipped probe: Black's rook.
    assert_eq!(probe(&set, "K7/8/1k6/8/8/8/8/7r b - - 0 1"), Dtm::Win(1));
}
