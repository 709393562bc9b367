//! Distributed tablebase generation (`bastion cluster tb`): one ending's index space split
//! into one slice per rank, as [`bastion_tablebase::partition`] describes.
//!
//! Every rank loads the sub-tables, holds its slice of the generator's working arrays and
//! exchanges the predecessor updates that fall in other ranks' slices once per level (in
//! batches of at most a million frontier positions); rank 0 gathers the values and writes the
//! file, byte-identical to `bastion tb gen`'s. This module holds what does not need MPI (the
//! report rank 0 prints); the MPI [`Exchange`] is
//! `MpiExchange` (feature `mpi`).

use bastion_tablebase::partition::{Exchange, ExchangeError, LevelTraffic, SlicedBuild};
use std::fmt::Write;

#[cfg(feature = "mpi")]
mod comm;
#[cfg(feature = "mpi")]
pub use comm::{watch_for_stop, MpiExchange, Phase};

/// Every rank's process id and host, at rank 0 (empty elsewhere), so that rank 0 can print
/// where each rank runs (`rank 2 of 4: pid 1234 on node1`), as the other cluster jobs do.
pub fn introduce(comm: &mut dyn Exchange, pid: u32, host: &str) -> Result<Vec<(u32, String)>, ExchangeError> {
    let mut words = vec![u64::from(pid), host.len() as u64];
    words.extend(host.as_bytes().chunks(8).map(|c| c.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b))));
    let got = comm.gather(words)?;
    if comm.rank() != 0 {
        return Ok(Vec::new());
    }
    Ok(got
        .iter()
        .map(|w| {
            let len = w.get(1).copied().unwrap_or(0) as usize;
            let bytes: Vec<u8> = w.iter().skip(2).flat_map(|x| x.to_le_bytes()).take(len).collect();
            (w.first().copied().unwrap_or(0) as u32, String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect())
}

/// `n` with thousands separators.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes as MiB with one decimal.
fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// The updates of all levels together.
pub fn total_traffic(traffic: &[LevelTraffic]) -> LevelTraffic {
    traffic.iter().fold(LevelTraffic::default(), |t, l| LevelTraffic {
        level: t.level.max(l.level),
        updates: t.updates + l.updates,
        messages: t.messages + l.messages,
    })
}

/// The report rank 0 prints at the end of `bastion cluster tb`: the table, every rank's
/// memory, the updates exchanged per level and in all, and the wall time.
pub fn report_text(build: &SlicedBuild, wall_seconds: f64) -> String {
    let r = &build.record;
    let mut out = String::new();
    if r.skipped {
        let _ = writeln!(
            out,
            "{}: complete file already there ({} bytes, longest {} plies): kept",
            r.ending,
            grouped(r.file_bytes),
            r.max_plies
        );
        return out;
    }
    let _ = writeln!(
        out,
        "{}: {} indices per side, {} ranks, {} levels, longest {} plies; generated in {:.1} s; {} bytes written",
        r.ending,
        grouped(r.indices_per_side),
        build.ranks,
        build.levels,
        r.max_plies,
        r.seconds,
        grouped(r.file_bytes)
    );
    if let Some(level) = build.resumed_at {
        let _ = writeln!(out, "resumed from the checkpoint at level {level} (the levels before it were not run again)");
    }
    for m in &build.memory {
        let rss = if m.peak_rss_bytes > 0 { format!(", peak RSS {}", mib(m.peak_rss_bytes)) } else { String::new() };
        let _ = writeln!(
            out,
            "rank {}: slice of {} indices per side: working arrays {}, sub-tables {}{rss}",
            m.rank,
            grouped(m.slice_indices),
            mib(m.slice_bytes),
            mib(m.sub_table_bytes)
        );
    }
    if !build.traffic.is_empty() {
        let _ = writeln!(out, "{:>5} {:>13} {:>8} {:>15}", "level", "updates", "messages", "bytes");
        for t in &build.traffic {
            let _ = writeln!(
                out,
                "{:>5} {:>13} {:>8} {:>15}",
                t.level,
                grouped(t.updates),
                grouped(t.messages),
                grouped(t.bytes())
            );
        }
        let total = total_traffic(&build.traffic);
        let _ = writeln!(
            out,
            "exchanged: {} updates in {} messages, {} bytes ({}), over {} levels",
            grouped(total.updates),
            grouped(total.messages),
            grouped(total.bytes()),
            mib(total.bytes()),
            build.traffic.len()
        );
    }
    let _ = writeln!(out, "wall time {wall_seconds:.1} s");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_in_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_892_352), "1,892,352");
    }

    #[test]
    fn ranks_introduce_themselves_to_rank_zero() {
        let got = std::thread::scope(|s| {
            let handles: Vec<_> = bastion_tablebase::partition::local_exchanges(3)
                .into_iter()
                .map(|mut ex| {
                    s.spawn(move || {
                        let rank = ex.rank();
                        introduce(&mut ex, 100 + rank as u32, &format!("node-{rank}.example.org")).unwrap()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect::<Vec<_>>()
        });
        assert_eq!(got[0][2], (102, "node-2.example.org".to_string()));
        assert_eq!(got[0].len(), 3);
        assert!(got[1].is_empty() && got[2].is_empty());
    }

    #[test]
    fn traffic_adds_up_over_levels() {
        let levels =
            [LevelTraffic { level: 0, updates: 10, messages: 2 }, LevelTraffic { level: 1, updates: 5, messages: 1 }];
        let t = total_traffic(&levels);
        assert_eq!((t.updates, t.messages, t.bytes()), (15, 3, 120));
    }
}
