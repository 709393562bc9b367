//! The CPU time the calling thread has used, where the system reports it.
//!
//! Benchmarks report it beside wall time because the machine may be shared:
//! under load, wall time overstates what one thread needs.

use std::time::Duration;

/// CPU time of this thread (Linux `/proc/thread-self/schedstat`), or `None`
/// where that file does not exist or cannot be read.
pub fn thread_cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}
