//! `bastion tb verify --every N`: a sampled check visits about 1/N of the positions of a full one.

use std::process::Command;

fn bastion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bastion")).args(args).output().expect("run bastion")
}

fn checked(out: &std::process::Output) -> u64 {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v[0]["mismatches"], 0);
    v[0]["checked"].as_u64().unwrap()
}

#[test]
fn sampled_verify_checks_a_fraction() {
    let dir = std::env::temp_dir().join(format!("bastion-tb-cli-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let gen = bastion(&["tb", "gen", "KQK", "--dir", d, "--threads", "1"]);
    assert!(gen.status.success(), "{}", String::from_utf8_lossy(&gen.stderr));
    let full = checked(&bastion(&["tb", "verify", "KQK", "--dir", d, "--json"]));
    let sample = checked(&bastion(&["tb", "verify", "KQK", "--dir", d, "--every", "7", "--json"]));
    let zero = bastion(&["tb", "verify", "KQK", "--dir", d, "--every", "0"]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(full > 10_000, "{full}");
    assert!(sample * 5 < full && sample * 10 > full, "sample {sample} of {full}");
    assert!(!zero.status.success());
}
