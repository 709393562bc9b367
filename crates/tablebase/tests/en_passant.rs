//! KPKP, the smallest ending with en passant, generated with everything it
//! needs and verified position by position against forward minimax. The
//! verifier values a double step that allows en passant by a one-ply search
//! over stored positions, independently of the generator's en-passant nodes.
//! About a minute of CPU: ignored by default.

use bastion_tablebase::gen::{generate, generate_all_into};
use bastion_tablebase::{verify, Material, TableSet};
use indicatif::ProgressBar;
use std::sync::Arc;

#[test]
#[ignore = "slow (about a minute of CPU); run by .ci/run"]
fn kpkp_with_en_passant_verifies() {
    let m = Material::parse("KPKP").unwrap();
    let mut set = TableSet::new();
    generate_all_into(&m.children(), &mut set);
    let (t, report) = generate(&m, &set, &ProgressBar::hidden());
    assert!(report.ep_nodes > 1000, "{} en-passant nodes", report.ep_nodes);
    let t = Arc::new(t);
    set.insert(t.clone());
    let r = verify::verify(&t, &set, &ProgressBar::hidden());
    assert!(r.ok(), "{r:?}");
    assert!(r.checked > 7_000_000);
}
