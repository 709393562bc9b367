//! Position-by-position cross-check of every 3-man table against Gaviota's
//! DTM tables, probed by python-chess's pure-Python prober.
//!
//! Needs `apt-get install gaviotatb` (tables in /usr/share/gaviotatb/gtb4) and
//! `pip install chess`; `GAVIOTA_DIR` overrides the table directory.

use bastion_core::Color;
use bastion_tablebase::gen::generate_all_into;
use bastion_tablebase::{Dtm, Material, TableSet};
use std::io::Write;
use std::process::Command;

#[test]
#[ignore = "needs gaviota tables + python-chess; run by .ci/run"]
fn three_man_tables_agree_with_gaviota() {
    let dir = std::env::var("GAVIOTA_DIR").unwrap_or_else(|_| "/usr/share/gaviotatb/gtb4".into());
    let mut set = TableSet::new();
    let all = Material::all_with(3);
    generate_all_into(&all, &mut set);
    let tmp = tempfile::tempdir().unwrap();
    let list = tmp.path().join("positions.txt");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&list).unwrap());
    let mut n = 0;
    for m in &all {
        let t = set.get(m).unwrap();
        let ix = t.indexer();
        for side in Color::ALL {
            for idx in 0..ix.size() {
                let Some(pos) = ix.position(idx, side) else { continue };
                let dtm = Dtm::from_code(t.code(side, idx).unwrap()).unwrap().signed_plies();
                writeln!(f, "{}\t{}", pos.fen(), dtm).unwrap();
                n += 1;
            }
        }
    }
    drop(f);
    assert!(n > 300_000, "{n} positions");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gaviota_check.py");
    let out = Command::new("python3").arg(script).arg(&list).arg(&dir).output().expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "gaviota cross-check failed: {text}");
    assert!(text.contains(&format!("{n} positions, 0 mismatches")));
}
