//! Bastion on more than one machine, over MPI.
//!
//! One process per rank; each rank may still use threads. Rank 0 does all the talking (it reads
//! the input, prints, writes files) and hands out work through a dynamic queue: a rank asks for
//! the next item when it has finished the last, so fast and slow ranks stay busy until the
//! queue is empty, and the results are put back in input order. Rank 0 works on the queue
//! too, from a thread of its own.
//!
//! A rank that stops answering ends the whole job with a message from rank 0 that names the
//! rank and the work it held, never a hang: busy ranks send a heartbeat every second, and rank 0
//! gives up on one that is silent for longer than [`QueueOptions::rank_timeout`]. Workers give up
//! on a silent rank 0 the same way.
//!
//! The queue ([`distribute`], [`serve`]) is written against the small [`Transport`] trait. The
//! MPI transport, `world::MpiWorld`, exists only with the cargo feature `mpi`; without it the
//! crate builds with cargo alone, and [`transport::local_world`] runs the same queue between
//! threads (the tests use it).
//!
//! The first user is the distributed EPD suite ([`suite`]): the same report as
//! `bastion epd`, computed by many ranks. The second is lazy-cluster search ([`search`]):
//! every rank searches the same position with its own engine and rank 0, speaking UCI,
//! plays the move the ranks vote for. The third is distributed tablebase generation
//! ([`tables`]): one ending's index space split over the ranks, rank 0 writing the file.
//! Matches ([`games`]) hand out one game at a time and end all ranks when the SPRT decides;
//! mate suites ([`mates`]) one entry at a time; [`ordered`] gives any suite's results back in
//! input order as they come.

#![warn(missing_docs)]

mod error;
pub mod games;
pub mod mates;
pub mod ordered;
pub mod protocol;
mod queue;
pub mod search;
pub mod suite;
pub mod tables;
pub mod transport;
#[cfg(feature = "mpi")]
pub mod world;

pub use error::{ClusterError, Peer};
pub use queue::{
    dismiss_all, distribute, distribute_interruptible, release, serve, serve_interruptible, Event, QueueOptions,
};
pub use transport::Transport;
