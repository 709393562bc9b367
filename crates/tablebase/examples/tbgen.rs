//! Benchmark driver without the CLI: `cargo run --release -p bastion-tablebase
//! --example tbgen -- DIR THREADS ENDING|3|4|5 [verify|stats]`. Generates (skipping finished
//! files), optionally verifies, and prints times, sizes and peak memory.

use bastion_tablebase::driver::{build, peak_rss_bytes, progress_bar, with_threads, Loader};
use bastion_tablebase::{verify, Material};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: tbgen DIR THREADS ENDING|3|4|5 [verify]");
        std::process::exit(2);
    }
    let dir = PathBuf::from(&args[1]);
    let threads: usize = args[2].parse().expect("threads");
    let targets: Vec<Material> = match args[3].parse::<usize>() {
        Ok(n) => Material::all_with(n),
        Err(_) => vec![Material::parse(&args[3]).expect("ending").normalized().0],
    };
    let do_verify = args.get(4).map(|s| s.starts_with("verify")).unwrap_or(false);
    // "verify/N" checks every N-th index only.
    let step: u64 = args.get(4).and_then(|s| s.strip_prefix("verify/")).map_or(1, |n| n.parse().expect("step"));
    let do_stats = args.get(4).map(|s| s == "stats").unwrap_or(false);
    std::fs::create_dir_all(&dir).unwrap();
    with_threads(Some(threads), || {
        let t0 = Instant::now();
        let recs = build(&targets, &dir, true, |r| {
            println!(
                "{:<7} skipped={} {:.3} s max_plies={} file={} bytes work={} bytes peak_rss={:?}",
                r.ending, r.skipped, r.seconds, r.max_plies, r.file_bytes, r.work_bytes, r.peak_rss_bytes
            )
        })
        .expect("build");
        let gen_time: f64 = recs.iter().map(|r| r.seconds).sum();
        println!(
            "total wall {:.2} s, generation {:.2} s, {} bytes, peak RSS {:?}",
            t0.elapsed().as_secs_f64(),
            gen_time,
            recs.iter().map(|r| r.file_bytes).sum::<u64>(),
            peak_rss_bytes()
        );
        if do_stats {
            let mut loader = Loader::new(&dir);
            for m in &targets {
                let t = loader.load(m).unwrap();
                let st = bastion_tablebase::stats::stats(&t);
                println!("{}", serde_json::to_string(&st).unwrap());
            }
        }
        if do_verify {
            let mut loader = Loader::new(&dir);
            for r in recs.iter().filter(|r| Material::parse(&r.ending).unwrap().count() >= targets[0].count()) {
                let m = Material::parse(&r.ending).unwrap();
                let t = loader.load(&m).unwrap();
                let mut set = loader.set_for(&m).unwrap();
                set.insert(t.clone());
                let t1 = Instant::now();
                let rep = verify::verify_every(&t, &set, &progress_bar(false, ""), step);
                println!(
                    "verify {:<7} checked {} mismatches {} ({:.2} s) {:?}",
                    rep.ending,
                    rep.checked,
                    rep.mismatches,
                    t1.elapsed().as_secs_f64(),
                    rep.examples.first()
                );
            }
        }
    })
    .unwrap();
}
