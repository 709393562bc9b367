//! The slices' exchange over MPI (feature `mpi`): `MPI_Ialltoall` of the batch sizes, then
//! `MPI_Ialltoallv` of the updates, each polled until done or until the rank timeout.

use crate::transport::Transport;
use crate::world::MpiWorld;
use bastion_tablebase::partition::{Exchange, ExchangeError};
use mpi::collective::CommunicatorCollectives;
use mpi::datatype::{Partition, PartitionMut};
use mpi::request::{scope, LocalScope, Request};
use mpi::Count;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where a generation is, shared with the thread that reports a stop from outside: 0 before
/// the levels (loading, initialising), `L + 1` during level `L`.
#[derive(Clone, Debug, Default)]
pub struct Phase(Arc<AtomicU32>);

impl Phase {
    /// The phase in words: "during initialisation", "at level 17".
    pub fn text(&self) -> String {
        match self.0.load(Ordering::Relaxed) {
            0 => "during initialisation".into(),
            l => format!("at level {}", l - 1),
        }
    }
}

/// One rank's slice exchange over `MPI_COMM_WORLD`. A collective that does not complete
/// within the rank timeout (rank 0) or twice that plus five seconds (the others, so that rank
/// 0 speaks first) ends the job (`MpiWorld::abort`) after a message: a rank has died or hangs.
pub struct MpiExchange<'w> {
    world: &'w MpiWorld,
    timeout: Duration,
    ending: String,
    phase: Phase,
}

impl<'w> MpiExchange<'w> {
    /// The exchange of rank `world.rank()` generating `ending`.
    pub fn new(world: &'w MpiWorld, rank_timeout: Duration, ending: &str) -> MpiExchange<'w> {
        MpiExchange { world, timeout: rank_timeout, ending: ending.to_string(), phase: Phase::default() }
    }

    /// Where the generation is, for a watcher thread.
    pub fn phase(&self) -> Phase {
        self.phase.clone()
    }

    /// Polls `request` until it completes; ends the job if it takes longer than the timeout.
    fn wait<'a, D: ?Sized>(&self, mut request: Request<'a, D, &LocalScope<'a>>) {
        let limit = if self.world.rank() == 0 { self.timeout } else { self.timeout * 2 + Duration::from_secs(5) };
        let start = Instant::now();
        let mut polls = 0u32;
        loop {
            match request.test() {
                Ok(_) => return,
                Err(r) => request = r,
            }
            if start.elapsed() > limit {
                self.give_up(start.elapsed());
            }
            // Spin briefly (exchanges are usually quick), then poll each millisecond.
            polls = polls.saturating_add(1);
            if polls < 2000 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }

    fn give_up(&self, waited: Duration) -> ! {
        let rank = self.world.rank();
        if rank == 0 {
            eprintln!(
                "error: generating {} {}: the exchange between the ranks got no answer for {:.0} s: a rank has died \
                 or hangs (an exchange among all ranks cannot tell which; mpirun's notice names a rank that died); \
                 ending the job. No file was written: run the command again to generate the table",
                self.ending,
                self.phase.text(),
                waited.as_secs_f64()
            );
        } else {
            eprintln!(
                "error: rank {rank}: generating {} {}: no exchange with the other ranks for {:.0} s: rank 0 or \
                 another rank has died or hangs; ending the job",
                self.ending,
                self.phase.text(),
                waited.as_secs_f64()
            );
        }
        self.world.abort(1)
    }
}

/// Running sums of `counts`, from 0, as MPI displacements.
fn displacements(counts: &[Count]) -> Result<Vec<Count>, ExchangeError> {
    let mut at: Count = 0;
    counts
        .iter()
        .map(|&c| {
            let d = at;
            at = at.checked_add(c).ok_or_else(|| ExchangeError("more than 2^31 words in one exchange".into()))?;
            Ok(d)
        })
        .collect()
}

impl Exchange for MpiExchange<'_> {
    fn rank(&self) -> usize {
        self.world.rank()
    }

    fn ranks(&self) -> usize {
        self.world.size()
    }

    fn at_level(&mut self, level: u16) {
        self.phase.0.store(u32::from(level) + 1, Ordering::Relaxed);
    }

    fn all_to_all(&mut self, outgoing: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, ExchangeError> {
        let n = self.ranks();
        if outgoing.len() != n {
            return Err(ExchangeError(format!("{} batches for {n} ranks", outgoing.len())));
        }
        let comm = self.world.comm();
        let send_counts = outgoing
            .iter()
            .map(|b| Count::try_from(b.len()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| ExchangeError("a batch of more than 2^31 words".into()))?;
        let mut recv_counts: Vec<Count> = vec![0; n];
        scope(|s| self.wait(comm.immediate_all_to_all_into(s, &send_counts[..], &mut recv_counts[..])));
        let send_displs = displacements(&send_counts)?;
        let recv_displs = displacements(&recv_counts)?;
        // One spare word in each buffer: two empty vectors share one dangling address, and
        // Open MPI takes a send buffer equal to the receive buffer for an in-place exchange,
        // which then runs another algorithm than the other ranks' and never completes.
        let total_send: usize = outgoing.iter().map(Vec::len).sum();
        let total_recv: usize = recv_counts.iter().map(|&c| c as usize).sum();
        let mut send = Vec::with_capacity(total_send + 1);
        for batch in outgoing {
            send.extend(batch);
        }
        send.push(0);
        let mut received = vec![0u64; total_recv + 1];
        {
            let sends = Partition::new(&send[..total_send], &send_counts[..], &send_displs[..]);
            let mut receives = PartitionMut::new(&mut received[..total_recv], &recv_counts[..], &recv_displs[..]);
            scope(|s| self.wait(comm.immediate_all_to_all_varcount_into(s, &sends, &mut receives)));
        }
        Ok(recv_displs
            .iter()
            .zip(&recv_counts)
            .map(|(&d, &c)| received[d as usize..(d + c) as usize].to_vec())
            .collect())
    }
}

/// Rank 0's answer to SIGTERM or Ctrl-C during a generation (mpirun sends SIGTERM to every
/// rank when one dies, and SIGKILL soon after): a thread, woken by the signal itself, that says
/// what was lost and ends the process at once, whatever the main thread is doing (computing,
/// or waiting in an exchange that will never complete).
pub fn watch_for_stop(phase: Phase, ending: &str) -> Result<(), String> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals =
        signal_hook::iterator::Signals::new([SIGTERM, SIGINT]).map_err(|e| format!("cannot watch signals: {e}"))?;
    let ending = ending.to_string();
    std::thread::Builder::new()
        .name("stop-watch".into())
        .spawn(move || {
            if signals.forever().next().is_some() {
                crate::world::say(&format!(
                    "error: stopped from outside while generating {ending} {}: mpirun ends every rank when one \
                     dies or is interrupted (its notice names the rank); no file was written: run the command \
                     again to generate the table",
                    phase.text()
                ));
                signal_hook::low_level::exit(1);
            }
        })
        .map(drop)
        .map_err(|e| format!("cannot start the stop watcher: {e}"))
}
