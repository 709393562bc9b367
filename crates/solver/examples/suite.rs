//! Benchmark runner without the CLI: `cargo run --release -p bastion-solver
//! --example suite -- FILE [SECONDS] [within] [nodes=N] [hash=MB]` prints one line per
//! position and the summary by mate length (the same code `bastion solve
//! --epd` runs). `nodes=N` stops each position after N nodes instead of (in
//! addition to) the time limit: node counts are deterministic, so versions
//! can be compared on a loaded machine.

use bastion_solver::epd::parse_suite;
use bastion_solver::suite::{group, run_entry_with};
use bastion_solver::Solver;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: suite FILE [SECONDS] [within] [nodes=N] [hash=MB]");
        std::process::exit(2);
    };
    let secs: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    // `within` proves mates within N without iterative deepening.
    let shortest = !args.iter().any(|a| a == "within");
    let node_limit: Option<u64> = args.iter().find_map(|a| a.strip_prefix("nodes=")).and_then(|v| v.parse().ok());
    let text = std::fs::read_to_string(path).expect("readable suite");
    let entries = parse_suite(&text).expect("valid suite");
    let mb: usize = args.iter().find_map(|a| a.strip_prefix("hash=")).and_then(|v| v.parse().ok()).unwrap_or(64);
    let mut solver = Solver::new(mb);
    solver.set_node_limit(node_limit);
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
