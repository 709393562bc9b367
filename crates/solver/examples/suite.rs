//! Benchmark runner without the CLI: `cargo run --release -p bastion-solver
//! --example suite -- FILE [SECONDS]` prints one line per position and the
//! summary by mate length (the same code `bastion solve --epd` runs).

use bastion_solver::epd::parse_suite;
use bastion_solver::suite::{group, run_entry_with};
use bastion_solver::Solver;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: suite FILE [SECONDS]");
        std::process::exit(2);
    };
    let secs: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    // A third argument `within` proves mates within N without iterative deepening.
    let shortest = args.get(3).map(String::as_str) != Some("within");
    let text = std::fs::read_to_string(path).expect("readable suite");
    let entries = parse_suite(&text).expect("valid suite");
    let mut solver = Solver::new(64);
    let mut rows = Vec::new();
    for e in &entries {
        let r = run_entry_with(&mut solver, e, Duration::from_secs_f64(secs), shortest);
        println!(
            "line {} #{} {} {:.3}s {} nodes {}",
            r.line,
            r.expected,
            if r.solved { "ok" } else { "FAIL" },
            r.seconds,
            r.nodes,
            r.note
        );
        rows.push(r);
    }
    println!("mate count solved median_s max_s nps");
    for g in group(&rows) {
        println!("{} {} {} {:.3} {:.3} {:.0}", g.mate, g.positions, g.solved, g.median_s, g.max_s, g.nps);
    }
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    println!("total nodes {nodes}");
}
