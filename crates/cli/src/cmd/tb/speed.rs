//! `bastion tb speed`: time WDL probes of the 2-bit bitbases against probes of the
//! DTM tables, on the same random positions, through the prober trait the engine's
//! search calls.

use anyhow::{bail, Context, Result};
use bastion_core::rng::Rng;
use bastion_core::{Color, Position, TablebaseProbe};
use bastion_tablebase::index::Indexer;
use bastion_tablebase::{Bitbases, Material, Tablebases};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `bastion tb speed`.
#[derive(Args, Debug)]
pub(super) struct SpeedArgs {
    /// Endings to sample, e.g. KRKN (several allowed; default: every ending that has
    /// both a `.btb` and a `.bwdl` file).
    endings: Vec<String>,
    /// Directory with the DTM tables (`*.btb`).
    #[arg(long, default_value = "tables")]
    dir: PathBuf,
    /// Directory with the bitbases (`*.bwdl`; default: --dir).
    #[arg(long)]
    bitbase_dir: Option<PathBuf>,
    /// Random positions probed in each timed pass (spread evenly over the endings).
    #[arg(long, default_value_t = 1_000_000)]
    probes: usize,
    /// Seed of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// One kind of probe, timed.
#[derive(Serialize)]
struct Timing {
    what: &'static str,
    /// First pass over the positions (opens files, fills caches).
    cold_ns_per_probe: f64,
    /// Second pass over the same positions.
    warm_ns_per_probe: f64,
}

#[derive(Serialize)]
struct SpeedReport {
    endings: Vec<String>,
    positions: usize,
    seed: u64,
    /// Positions where the bitbase's WDL differs from the DTM table's (must be 0).
    disagreements: usize,
    timings: Vec<Timing>,
}

/// `n` random legal positions of `m` (canonical indices drawn at random, then a
/// random colour orientation), with either side to move.
fn sample(m: &Material, n: usize, rng: &mut Rng) -> Vec<Position> {
    let ix = Indexer::new(m);
    let mut out = Vec::with_capacity(n);
    // Endings with few legal indices still fill up: at least about a tenth are legal.
    let mut tries = 0usize;
    while out.len() < n && tries < 100 * n.max(1) {
        tries += 1;
        let idx = rng.next_u64() % ix.size();
        let side = if rng.below(2) == 0 { Color::White } else { Color::Black };
        let Some(pos) = ix.position(idx, side) else { continue };
        out.push(if rng.below(2) == 0 { pos } else { pos.mirrored() });
    }
    out
}

/// Nanoseconds per probe of `probe` over `positions`, twice; the answers of the first pass.
fn time<T>(positions: &[Position], probe: impl Fn(&Position) -> Option<T>) -> (f64, f64, Vec<Option<T>>) {
    let start = Instant::now();
    let answers: Vec<Option<T>> = positions.iter().map(&probe).collect();
    let cold = start.elapsed().as_nanos() as f64 / positions.len() as f64;
    let start = Instant::now();
    let mut found = 0usize;
    for p in positions {
        found += usize::from(std::hint::black_box(probe(p)).is_some());
    }
    std::hint::black_box(found);
    let warm = start.elapsed().as_nanos() as f64 / positions.len() as f64;
    (cold, warm, answers)
}

/// Runs `bastion tb speed`.
pub(super) fn run(a: SpeedArgs) -> Result<()> {
    let bb_dir = a.bitbase_dir.clone().unwrap_or_else(|| a.dir.clone());
    let dtm = Tablebases::open(&[&a.dir]).with_context(|| format!("opening tables in {}", a.dir.display()))?;
    let bbs = Bitbases::open(&bb_dir).with_context(|| format!("opening bitbases in {}", bb_dir.display()))?;
    let endings: Vec<Material> = if a.endings.is_empty() {
        dtm.endings().iter().map(|(m, _)| m.clone()).filter(|m| bbs.endings().iter().any(|(b, _)| b == m)).collect()
    } else {
        a.endings.iter().map(|e| Ok(Material::parse(e)?.normalized().0)).collect::<Result<_>>()?
    };
    for m in &endings {
        if !dtm.endings().iter().any(|(e, _)| e == m) || !bbs.endings().iter().any(|(e, _)| e == m) {
            bail!(
                "{} needs both {}.btb in {} and {}.bwdl in {} (make them with `bastion tb gen` and `bastion tb bitbase`)",
                m.name(),
                m.name(),
                a.dir.display(),
                m.name(),
                bb_dir.display()
            );
        }
    }
    if endings.is_empty() || a.probes == 0 {
        bail!("nothing to probe: no ending with both a table and a bitbase, or --probes 0");
    }
    let mut rng = Rng::new(a.seed);
    let per = a.probes.div_ceil(endings.len());
    let mut positions: Vec<Position> = endings.iter().flat_map(|m| sample(m, per, &mut rng)).collect();
    rng.shuffle(&mut positions);
    positions.truncate(a.probes);

    let (bb_cold, bb_warm, bb_wdl) = time(&positions, |p| TablebaseProbe::probe_wdl(&bbs, p));
    let (wdl_cold, wdl_warm, dtm_wdl) = time(&positions, |p| TablebaseProbe::probe_wdl(&dtm, p));
    let (dtm_cold, dtm_warm, _) = time(&positions, |p| TablebaseProbe::probe_dtm(&dtm, p));
    let disagreements = bb_wdl.iter().zip(&dtm_wdl).filter(|(b, d)| b != d || b.is_none()).count();
    let report = SpeedReport {
        endings: endings.iter().map(Material::name).collect(),
        positions: positions.len(),
        seed: a.seed,
        disagreements,
        timings: vec![
            Timing { what: "bitbase WDL", cold_ns_per_probe: bb_cold, warm_ns_per_probe: bb_warm },
            Timing { what: "DTM table WDL", cold_ns_per_probe: wdl_cold, warm_ns_per_probe: wdl_warm },
            Timing { what: "DTM table distance", cold_ns_per_probe: dtm_cold, warm_ns_per_probe: dtm_warm },
        ],
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{} random positions of {} (seed {})", report.positions, report.endings.join(" "), report.seed);
        for t in &report.timings {
            println!(
                "{:<20} {:>9.1} ns/probe first pass {:>9.1} ns/probe second pass",
                t.what, t.cold_ns_per_probe, t.warm_ns_per_probe
            );
        }
        println!("bitbase and DTM WDL disagree on {} positions", report.disagreements);
    }
    if disagreements > 0 {
        bail!("{disagreements} positions where the bitbase and the DTM table disagree");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_legal_positions_of_the_ending_in_both_orientations() {
        let m = Material::parse("KRKN").unwrap();
        let positions = sample(&m, 200, &mut Rng::new(3));
        assert_eq!(positions.len(), 200);
        for p in &positions {
            let mine = Material::of(p).normalized().0;
            assert_eq!(mine, m, "{}", p.fen());
            assert!(Position::from_fen(&p.fen()).is_ok(), "{}", p.fen());
        }
        let white_rook = positions.iter().filter(|p| Material::of(p) == m).count();
        assert!(white_rook > 50 && white_rook < 150, "{white_rook}");
    }
}
