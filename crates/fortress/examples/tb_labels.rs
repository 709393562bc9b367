//! Checks the labelled fortress set against Bastion's own DTM tablebases
//! (generated in memory), and finds long wins to add to the set.
//!
//! This is a development tool only: the detector itself never probes a
//! tablebase. Usage:
//!
//! ```text
//! cargo run --release -p bastion-fortress --example tb_labels -- check tests/data/labelled.tsv
//! cargo run --release -p bastion-fortress --example tb_labels -- longest KRKN 5
//! ```

use bastion_core::{Color, Piece, Position, Square};
use bastion_fortress::labels::{read_labelled, Label};
use bastion_tablebase::gen::generate_all_into;
use bastion_tablebase::{Dtm, Material, TableSet};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("check") => check(args.get(1).ok_or("missing file")?),
        Some("longest") => longest(args.get(1).ok_or("missing material")?, args.get(2).map_or(Ok(5), |s| s.parse())?),
        _ => Err("usage: tb_labels check FILE | longest MATERIAL [N]".into()),
    }
}

fn check(path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let set = read_labelled(std::path::Path::new(path))?;
    let mut tables = TableSet::new();
    let (mut ok, mut bad, mut skipped) = (0, 0, 0);
    for entry in &set {
        let pos = Position::from_fen(&entry.fen)?;
        if pos.occupied().count() > 5 {
            println!("{:<24} {:>9}  (not in tablebase range)", entry.id, "-");
            skipped += 1;
            continue;
        }
        let m = Material::of(&pos);
        generate_all_into(&[m], &mut tables);
        let dtm = tables.probe(&pos)?.ok_or("no table")?;
        let agrees =
            matches!((entry.label, dtm), (Label::Fortress, Dtm::Draw) | (Label::Progress, Dtm::Win(_) | Dtm::Loss(_)));
        if agrees {
            ok += 1
        } else {
            bad += 1
        }
        println!("{:<24} {:>9?}  {}", entry.id, dtm, if agrees { "ok" } else { "LABEL DISAGREES" });
    }
    println!("{ok} agree, {bad} disagree, {skipped} beyond 5 men");
    if bad > 0 {
        return Err("labels disagree with the tablebase".into());
    }
    Ok(())
}

fn longest(name: &str, n: usize) -> Result<(), Box<dyn std::error::Error>> {
    let m = Material::parse(name)?;
    let mut tables = TableSet::new();
    generate_all_into(std::slice::from_ref(&m), &mut tables);
    let t = tables.get(&m).ok_or("no table")?;
    let ix = t.indexer();
    let pieces: Vec<Piece> = ix.pieces().to_vec();
    let mut found: Vec<(u16, String)> = Vec::new();
    let mut sq = vec![0u8; pieces.len()];
    for idx in 0..ix.size() {
        let Some(Dtm::Win(p)) = Dtm::from_code(t.code(Color::White, idx)?) else { continue };
        ix.decode(idx, &mut sq);
        let placed: Vec<(Square, Piece)> =
            sq.iter().zip(&pieces).map(|(&s, &p)| (Square::from_index(s as usize), p)).collect();
        if let Ok(pos) = Position::from_pieces(&placed, Color::White) {
            found.push((p, pos.fen()));
        }
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    for (p, fen) in found.iter().take(n) {
        println!("{p:>4} plies  {fen}");
    }
    Ok(())
}
