//! `bastion epd --nodes`: a node-limited suite run is reproducible, and says so in its report.

use std::process::Command;

const WAC: &str = "\
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";
8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\";
5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id \"WAC.003\";
";

fn run(file: &std::path::Path) -> serde_json::Value {
    let engine = format!("{} uci", env!("CARGO_BIN_EXE_bastion"));
    let out = Command::new(env!("CARGO_BIN_EXE_bastion"))
        .args(["epd", "--engine", &engine, "--nodes", "20000", "--threads", "1", "--hash", "16", "--json"])
        .arg(file)
        .output()
        .expect("run bastion epd");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

#[test]
fn node_limited_runs_repeat_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wac.epd");
    std::fs::write(&file, WAC).unwrap();
    let (a, b) = (run(&file), run(&file));
    assert_eq!(a["nodes"], 20000);
    assert_eq!(a["positions"], 3);
    let summary = |v: &serde_json::Value| -> Vec<(String, String, u64)> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["found"].as_str().unwrap().to_string(),
                    r["score"].as_str().unwrap().to_string(),
                    r["depth"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    // Same nodes, one thread, cleared hash: same moves, scores and depths.
    assert_eq!(summary(&a), summary(&b));
    assert!(a["mean_depth"].as_f64().unwrap() >= 1.0);
}
