//! The MPI world (feature `mpi`): start-up, the [`Transport`] over `MPI_COMM_WORLD`, ending the
//! whole job, and the stop flag that tells rank 0 mpirun is ending it.

use crate::transport::Transport;
use mpi::environment::{Threading, Universe};
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The tag of every queue message; the queue's own protocol says what a message is.
const TAG: mpi::Tag = 76;

/// This process's rank in an MPI job. Dropping it finalises MPI, so keep it alive until the
/// rank is done.
pub struct MpiWorld {
    world: SimpleCommunicator,
    // Declared last so that it is dropped (MPI_Finalize) after the communicator.
    _universe: Universe,
}

impl MpiWorld {
    /// Initialises MPI. Only the main thread calls MPI (`MPI_THREAD_FUNNELED`); work runs in
    /// other threads. Started without mpirun, this is a job of one rank.
    pub fn init() -> Result<MpiWorld, String> {
        let (universe, _) =
            mpi::initialize_with_threading(Threading::Funneled).ok_or("MPI was already initialised in this process")?;
        Ok(MpiWorld { world: universe.world(), _universe: universe })
    }

    /// Ends every rank of the job with exit status `code` (at least 1); used after a rank has
    /// said why.
    ///
    /// The process exits without `MPI_Finalize` rather than calling `MPI_Abort`: mpirun ends
    /// the other ranks either way (a rank that exits without finalising aborts the job), but
    /// `MPI_Abort` also sends mpirun a notice, and Open MPI 4.1's mpirun garbles that notice
    /// (`ORTE_ERROR_LOG … show_help.c`) in about two of three jobs ended while another rank was
    /// stopped, then crashed or waited for ever in about one in six. An exit leaves the notice
    /// to mpirun itself.
    pub fn abort(&self, code: i32) -> ! {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        std::process::exit(code.max(1))
    }

    /// The communicator of every rank, for collective exchanges.
    pub(crate) fn comm(&self) -> &SimpleCommunicator {
        &self.world
    }

    /// Waits until every rank gets here.
    pub fn barrier(&self) {
        use mpi::collective::CommunicatorCollectives;
        self.world.barrier();
    }
}

impl Transport for MpiWorld {
    fn rank(&self) -> usize {
        usize::try_from(self.world.rank()).expect("MPI ranks are not negative")
    }

    fn size(&self) -> usize {
        usize::try_from(self.world.size()).expect("MPI sizes are positive")
    }

    fn host(&self) -> String {
        mpi::environment::processor_name().unwrap_or_else(|_| "unknown host".into())
    }

    fn send(&self, to: usize, bytes: &[u8]) -> Result<(), String> {
        let rank = i32::try_from(to).map_err(|_| format!("no rank {to}"))?;
        if rank >= self.world.size() {
            return Err(format!("no rank {to}"));
        }
        // Queue messages are small (one item), so this is an eager send that does not wait for
        // the receiver; MPI's default error handler ends the job if the peer is unreachable.
        self.world.process_at_rank(rank).send_with_tag(bytes, TAG);
        Ok(())
    }

    fn try_receive(&self) -> Option<(usize, Vec<u8>)> {
        let probed = self.world.any_process().immediate_matched_probe_with_tag(TAG)?;
        let (bytes, status) = probed.matched_receive_vec::<u8>();
        Some((usize::try_from(status.source_rank()).ok()?, bytes))
    }
}

/// Writes `line` and a newline to stderr in one write. mpirun forwards a rank's output in the
/// chunks the rank wrote and stops reading once it tears the job down, so a message written in
/// pieces (as `eprintln!` writes a formatted one) can lose its end when the job is ending.
pub fn say(line: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
}

/// A flag set when this process receives SIGTERM or SIGINT. When one rank dies, mpirun ends the
/// others with SIGTERM and follows with SIGKILL about a second later; rank 0 uses that second
/// to say what happened instead of vanishing without a word.
pub fn stop_flag() -> Result<Arc<AtomicBool>, String> {
    let flag = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, flag.clone()).map_err(|e| format!("cannot watch signal {signal}: {e}"))?;
    }
    Ok(flag)
}

/// Whether the flag from [`stop_flag`] is set.
pub fn stopped(flag: &AtomicBool) -> bool {
    flag.load(Ordering::Relaxed)
}
