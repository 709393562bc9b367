//! Stand-alone UCI engine binary (the `bastion` CLI offers the same as `bastion uci`
//! and `bastion bench`); used by this crate's integration tests to drive the engine
//! over stdin/stdout. `bastion-engine bench [depth]` prints the bench signature.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("bench") {
        let depth = match args.get(2).map(|d| d.parse::<i32>()) {
            None => bastion_engine::bench::DEFAULT_DEPTH,
            Some(Ok(d)) if (1..=64).contains(&d) => d,
            _ => {
                eprintln!("usage: bastion-engine bench [depth 1..64]");
                std::process::exit(2);
            }
        };
        let r = bastion_engine::bench::run(depth, 16, &mut |_, _, _| {});
        println!("positions {} depth {depth}", r.positions);
        println!("time      {} ms", r.time_ms);
        println!("nodes     {}", r.nodes);
        println!("nps       {}", r.nps());
        return;
    }
    bastion_engine::uci::run_stdio(None);
}
