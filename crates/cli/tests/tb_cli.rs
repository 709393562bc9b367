//! `bastion tb`: a sampled verify visits about 1/N of the positions of a full one; probe answers
//! from generated tables and says how to generate a missing one.

mod common;

use common::bastion;

fn checked(out: &std::process::Output) -> u64 {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v[0]["mismatches"], 0);
    v[0]["checked"].as_u64().unwrap()
}

#[test]
fn sampled_verify_checks_a_fraction() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let gen = bastion(&["tb", "gen", "KQK", "--dir", d, "--threads", "1"]);
    assert!(gen.status.success(), "{}", String::from_utf8_lossy(&gen.stderr));
    let full = checked(&bastion(&["tb", "verify", "KQK", "--dir", d, "--json"]));
    let sample = checked(&bastion(&["tb", "verify", "KQK", "--dir", d, "--every", "7", "--json"]));
    let zero = bastion(&["tb", "verify", "KQK", "--dir", d, "--every", "0"]);
    assert!(full > 10_000, "{full}");
    assert!(sample * 5 < full && sample * 10 > full, "sample {sample} of {full}");
    assert!(!zero.status.success());
}

#[test]
fn probe_answers_from_tables_and_names_the_missing_ones() {
    let tmp = tempfile::tempdir().unwrap();
    // Not created here: the first probe finds no table directory, `tb gen` makes it.
    let dir = tmp.path().join("tables");
    let d = dir.to_str().unwrap();
    let kqk = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1";
    let absent = bastion(&["tb", "probe", kqk, "--dir", d]);
    let gen = bastion(&["tb", "gen", "KQK", "--dir", d, "--threads", "1"]);
    let probe = bastion(&["tb", "probe", kqk, "--dir", d, "--json"]);
    let missing = bastion(&["tb", "probe", "8/8/8/4k3/8/8/8/KR6 w - - 0 1", "--dir", d]);

    assert!(!absent.status.success());
    let err = String::from_utf8_lossy(&absent.stderr);
    assert!(err.contains("no table directory") && err.contains("bastion tb gen KQK"), "{err}");
    assert!(gen.status.success(), "{}", String::from_utf8_lossy(&gen.stderr));
    assert!(probe.status.success(), "{}", String::from_utf8_lossy(&probe.stderr));
    let v: serde_json::Value = serde_json::from_slice(&probe.stdout).expect("one JSON document");
    assert_eq!(v["ending"], "KQK");
    let n = v["mate_in_moves"].as_u64().expect("a won KQK position has a mate distance");
    assert!((1..=10).contains(&n), "KQK mates within 10 moves, got {n}");
    assert_eq!(v["line"].as_array().unwrap().len() as u64, 2 * n - 1, "the optimal line mates on time");
    assert!(!missing.status.success());
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(err.contains("no table for KRK") && err.contains("bastion tb gen KRK"), "{err}");
}
