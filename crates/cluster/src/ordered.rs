//! The queue with results seen in input order: for suites whose single-process command prints
//! a line per position as it goes (and appends it to a resume file), so that the distributed
//! run prints the same lines in the same order, each as soon as every one before it is in.

use crate::queue::{distribute, Event, QueueOptions};
use crate::{ClusterError, Peer, Transport};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// [`distribute`], with `in_order` called for each result in input order (index from 0, the
/// rank that did it, the result) as soon as all results before it have arrived. `on_join` sees
/// each rank start. Returns the results in input order.
pub fn distribute_in_order<T, R, F>(
    transport: &dyn Transport,
    tasks: &[T],
    work: F,
    options: &QueueOptions,
    stop: &dyn Fn() -> bool,
    mut on_join: impl FnMut(usize, &Peer),
    mut in_order: impl FnMut(usize, usize, &R),
) -> Result<Vec<R>, ClusterError>
where
    T: Serialize + Clone + Send + 'static,
    R: DeserializeOwned + Clone + Send + 'static,
    F: Fn(&T) -> Result<R, String> + Send + 'static,
{
    // Results that arrived before one of their predecessors, with their ranks.
    let mut waiting: Vec<Option<(usize, R)>> = tasks.iter().map(|_| None).collect();
    let mut next = 0;
    distribute(transport, tasks, work, options, stop, |event: Event<'_, R>| match event {
        Event::Joined { rank, peer } => on_join(rank, peer),
        Event::Finished { rank, index, result } => {
            waiting[index] = Some((rank, result.clone()));
            while let Some((rank, result)) = waiting.get_mut(next).and_then(Option::take) {
                in_order(next, rank, &result);
                next += 1;
            }
        }
    })
}
