//! Files indexed before like men were folded (table index codes 1 and 2,
//! bitbase version 1) are still read, and give the values today's files give.

use bastion_core::Color;
use bastion_tablebase::format::{write_table, TableFile};
use bastion_tablebase::index::Indexer;
use bastion_tablebase::value::ILLEGAL;
use bastion_tablebase::{Bitbase, Bitbases, Codes, Material, Metric, TableData, Tablebases};

/// A table of today's index with made-up values (only the layout is under test):
/// a code from the index for every legal canonical index.
fn synthetic(m: &Material) -> TableData {
    let ix = Indexer::new(m);
    assert!(ix.folded());
    let values = Color::ALL.map(|side| {
        Codes::from_wide(
            (0..ix.size())
                .map(|i| if ix.position(i, side).is_some() { 2 + (i % 61) as u16 } else { ILLEGAL })
                .collect(),
        )
    });
    TableData { indexer: ix, metric: Metric::Dtm, values }
}

/// The table re-indexed the way files were written before folding.
fn unfolded_copy(t: &TableData, code: u8) -> TableData {
    let ix = Indexer::from_header(t.material(), code).unwrap();
    assert!(!ix.folded());
    let values = Color::ALL.map(|side| {
        Codes::from_wide(
            (0..ix.size())
                .map(|i| match ix.position(i, side) {
                    Some(p) => t.values[side.index()].get(t.indexer.index_of(&p).unwrap() as usize),
                    None => ILLEGAL,
                })
                .collect(),
        )
    });
    TableData { indexer: ix, metric: Metric::Dtm, values }
}

#[test]
fn tables_and_bitbases_indexed_before_folding_still_probe() {
    for (name, code) in [("KRRK", 1u8), ("KPPK", 2)] {
        let m = Material::parse(name).unwrap();
        let (new_tmp, old_tmp) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (new_dir, old_dir) = (new_tmp.path(), old_tmp.path());
        let table = synthetic(&m);
        write_table(new_dir, &table).unwrap();
        assert_eq!(TableFile::open(&new_dir.join(format!("{name}.btb"))).unwrap().header().scheme, code + 2);
        let old = unfolded_copy(&table, code);
        assert!(old.indexer.size() > table.indexer.size());
        write_table(old_dir, &old).unwrap();
        assert_eq!(TableFile::open(&old_dir.join(format!("{name}.btb"))).unwrap().header().scheme, code);
        Bitbase::from_table(&table).write(new_dir).unwrap();
        Bitbase::from_table(&old).write(old_dir).unwrap();
        assert_eq!(std::fs::read(old_dir.join(format!("{name}.bwdl"))).unwrap()[8], 1, "bitbase version 1");

        let (tb_new, tb_old) = (Tablebases::open(&[new_dir]).unwrap(), Tablebases::open(&[old_dir]).unwrap());
        let (bb_new, bb_old) = (Bitbases::open(new_dir).unwrap(), Bitbases::open(old_dir).unwrap());
        let mut probed = 0;
        for side in Color::ALL {
            for i in (0..old.indexer.size()).step_by(37) {
                let Some(p) = old.indexer.position(i, side) else { continue };
                let value = tb_new.try_probe_dtm(&p).unwrap();
                assert!(value.is_some());
                assert_eq!(tb_old.try_probe_dtm(&p).unwrap(), value, "{}", p.fen());
                assert_eq!(bb_old.probe_wdl(&p), bb_new.probe_wdl(&p), "{}", p.fen());
                probed += 1;
            }
        }
        assert!(probed > 10_000, "{probed}");
    }
}
