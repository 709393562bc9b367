//! The dynamic work queue: rank 0 hands out items one at a time, watches the ranks that hold
//! them and puts the results back in input order; every other rank asks, works and answers.

use crate::error::{ClusterError, Peer};
use crate::protocol::{decode, encode, ToRoot, ToWorker};
use crate::transport::Transport;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How often rank 0 and idle workers look for messages. Work items take milliseconds to
/// minutes, so a millisecond of latency is nothing and the sleeping loop costs no core.
const POLL: Duration = Duration::from_millis(1);

/// Settings of the queue.
#[derive(Clone, Debug)]
pub struct QueueOptions {
    /// How often a busy worker tells rank 0 that it is alive.
    pub heartbeat: Duration,
    /// How long a rank may be silent (no result, no heartbeat) before the job is ended.
    pub rank_timeout: Duration,
    /// Whether rank 0 works on the queue too, from a thread of its own. A job of one rank
    /// always does.
    pub root_works: bool,
}

impl Default for QueueOptions {
    fn default() -> Self {
        QueueOptions { heartbeat: Duration::from_secs(1), rank_timeout: Duration::from_secs(30), root_works: true }
    }
}

/// What rank 0 sees while the queue runs.
#[derive(Debug)]
pub enum Event<'a, R> {
    /// A rank has started (rank 0 itself first).
    Joined {
        /// The rank.
        rank: usize,
        /// Where it runs.
        peer: &'a Peer,
    },
    /// An item is done.
    Finished {
        /// The rank that did it.
        rank: usize,
        /// The item, from 0.
        index: usize,
        /// Its result.
        result: &'a R,
    },
}

/// A thread that runs the work function on one item at a time, so that the rank's main thread
/// stays free to talk (MPI is only ever called from the main thread).
struct Helper<T, R> {
    tasks: Sender<(usize, T)>,
    results: Receiver<(usize, Result<R, String>)>,
    /// Set when the item in hand is no longer wanted: the work function sees it through the
    /// interrupt test it is given.
    abandon: Arc<AtomicBool>,
}

impl<T, R> Drop for Helper<T, R> {
    /// A helper left behind (the queue ended early: a stop, an error) abandons its item, so
    /// that a work function that polls its interrupt test (a game) ends at its next check.
    fn drop(&mut self) {
        self.abandon.store(true, Ordering::Relaxed);
    }
}

fn spawn_helper<T, R, F>(work: F) -> Helper<T, R>
where
    T: Send + 'static,
    R: Send + 'static,
    F: Fn(&T, &dyn Fn() -> bool) -> Result<R, String> + Send + 'static,
{
    let (task_tx, task_rx) = mpsc::channel::<(usize, T)>();
    let (result_tx, result_rx) = mpsc::channel();
    let abandon = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&abandon);
    thread::spawn(move || {
        let interrupted = || flag.load(Ordering::Relaxed);
        for (index, task) in task_rx {
            if result_tx.send((index, work(&task, &interrupted))).is_err() {
                break;
            }
        }
    });
    Helper { tasks: task_tx, results: result_rx, abandon }
}

/// Rank 0's record of one other rank.
#[derive(Debug)]
struct RankState {
    peer: Option<Peer>,
    holding: Option<usize>,
    last_heard: Instant,
    dismissed: bool,
}

/// Rank 0's side of the queue: the state shared by everything the loop does.
struct Root<'t, T> {
    transport: &'t dyn Transport,
    tasks: &'t [T],
    next: usize,
    ranks: Vec<RankState>,
}

impl<T: Serialize> Root<'_, T> {
    /// Gives `rank` the next item, or dismisses it when none is left.
    fn hand_out(&mut self, rank: usize) -> Result<(), ClusterError> {
        let message = if self.next < self.tasks.len() {
            let index = self.next;
            self.next += 1;
            self.ranks[rank].holding = Some(index);
            encode(&ToWorker::Task { index, task: &self.tasks[index] })
        } else {
            self.ranks[rank].dismissed = true;
            encode(&ToWorker::<&T>::Done)
        };
        self.transport.send(rank, &message).map_err(|message| ClusterError::Protocol { rank, message })
    }

    /// Ends a job stopped after `done` results; the error names the items still out, rank 0's
    /// own (`local`) first. Ranks that hold no item yet are sent away here. Ranks at work are
    /// not: on a stop from outside mpirun is ending them, one of them may be the rank that
    /// died, and a send to a dead rank can end rank 0 (MPI's default error handler) before it
    /// says what happened. A caller that stopped the job itself sends them away with
    /// [`release`].
    fn stopped(&mut self, local: Option<usize>, done: usize) -> ClusterError {
        let mut out: Vec<(usize, usize)> = local.map(|i| (0, i)).into_iter().collect();
        out.extend(self.ranks.iter().enumerate().filter_map(|(rank, r)| r.holding.map(|i| (rank, i))));
        let bye = encode(&ToWorker::<&T>::Done);
        for (rank, state) in self.ranks.iter_mut().enumerate().skip(1) {
            if state.dismissed || state.holding.is_some() {
                continue;
            }
            state.dismissed = true;
            // Best effort: a rank that cannot be reached is gone already, and the job ends.
            let _ = self.transport.send(rank, &bye);
        }
        ClusterError::Stopped { done, total: self.tasks.len(), out }
    }

    /// The next item for rank 0's own helper, if any.
    fn take_local(&mut self) -> Option<usize> {
        (self.next < self.tasks.len()).then(|| {
            self.next += 1;
            self.next - 1
        })
    }
}

/// Sends away the ranks still at work after a job its caller stopped (the `out` of
/// [`ClusterError::Stopped`]; rank 0's own entry is skipped): each abandons its item (a work
/// function given to [`serve_interruptible`] sees its interrupt test turn true; any other
/// finishes the item), sends no result and leaves. Not for a stop from outside (see
/// [`distribute`]).
pub fn release(transport: &dyn Transport, out: &[(usize, usize)]) {
    let bye = encode(&ToWorker::<&()>::Abandon);
    for &(rank, _) in out.iter().filter(|(rank, _)| *rank != 0) {
        // Best effort, as in `distribute`: the job ends either way.
        let _ = transport.send(rank, &bye);
    }
}

/// Runs `tasks` on every rank of the job and returns their results in input order; called on
/// rank 0, while every other rank calls [`serve`] with the same work function.
///
/// `on_event` sees each rank join and each result arrive (in the order they finish). `stop` is
/// polled between messages and after every result but the last: when it says so, the job ends
/// with [`ClusterError::Stopped`], naming the items still out; the ranks at work on them are
/// sent away only by [`release`], for a stop the caller decided (a stop from outside, SIGTERM
/// from mpirun after a rank died, must not send to a rank that may be dead). Any rank that fails, or is silent for longer than
/// `options.rank_timeout`, ends it with an error that names the rank; the caller then ends the
/// job (`MpiWorld::abort`), since the other ranks may still be working.
pub fn distribute<T, R, F>(
    transport: &dyn Transport,
    tasks: &[T],
    work: F,
    options: &QueueOptions,
    stop: &dyn Fn() -> bool,
    on_event: impl FnMut(Event<'_, R>),
) -> Result<Vec<R>, ClusterError>
where
    T: Serialize + Clone + Send + 'static,
    R: DeserializeOwned + Send + 'static,
    F: Fn(&T) -> Result<R, String> + Send + 'static,
{
    distribute_interruptible(
        transport,
        tasks,
        move |task: &T, _: &dyn Fn() -> bool| work(task),
        options,
        stop,
        on_event,
    )
}

/// [`distribute`] for a work function that can stop an item half done: its second argument
/// turns true when the item is no longer wanted (on rank 0, once the queue has ended early; on
/// the other ranks, at [`release`]). Every rank calls [`serve_interruptible`] with it.
pub fn distribute_interruptible<T, R, F>(
    transport: &dyn Transport,
    tasks: &[T],
    work: F,
    options: &QueueOptions,
    stop: &dyn Fn() -> bool,
    mut on_event: impl FnMut(Event<'_, R>),
) -> Result<Vec<R>, ClusterError>
where
    T: Serialize + Clone + Send + 'static,
    R: DeserializeOwned + Send + 'static,
    F: Fn(&T, &dyn Fn() -> bool) -> Result<R, String> + Send + 'static,
{
    let size = transport.size();
    let me = Peer { host: transport.host(), pid: std::process::id() };
    on_event(Event::Joined { rank: 0, peer: &me });
    let started = Instant::now();
    let ranks = (0..size)
        .map(|rank| RankState { peer: None, holding: None, last_heard: started, dismissed: rank == 0 })
        .collect();
    let mut root = Root { transport, tasks, next: 0, ranks };
    let mut results: Vec<Option<R>> = tasks.iter().map(|_| None).collect();
    let mut done = 0;

    let local = (options.root_works || size == 1).then(|| spawn_helper(work));
    let mut local_holding = None;
    let give_local = |root: &mut Root<'_, T>, holding: &mut Option<usize>| {
        let Some(helper) = &local else { return };
        if let Some(index) = root.take_local() {
            // The helper outlives the loop unless it panicked, which the receive below reports.
            let _ = helper.tasks.send((index, tasks[index].clone()));
            *holding = Some(index);
        }
    };
    give_local(&mut root, &mut local_holding);

    loop {
        let remote_busy = root.ranks.iter().any(|r| !r.dismissed);
        if done == tasks.len() && !remote_busy && local_holding.is_none() {
            break;
        }
        if stop() {
            return Err(root.stopped(local_holding, done));
        }
        let mut idle = true;
        while let Some((rank, bytes)) = transport.try_receive() {
            idle = false;
            if rank == 0 || rank >= size {
                return Err(ClusterError::Protocol { rank, message: "a message from an unexpected rank".into() });
            }
            let message: ToRoot<R> = decode(&bytes).map_err(|message| ClusterError::Protocol { rank, message })?;
            let state = &mut root.ranks[rank];
            state.last_heard = Instant::now();
            match message {
                ToRoot::Hello { host, pid } => {
                    let peer = state.peer.insert(Peer { host, pid }).clone();
                    on_event(Event::Joined { rank, peer: &peer });
                    root.hand_out(rank)?;
                }
                ToRoot::Heartbeat => {}
                ToRoot::Result { index, result } => {
                    if state.holding != Some(index) || results[index].is_some() {
                        let message = format!("a result for item {} that it did not hold", index + 1);
                        return Err(ClusterError::Protocol { rank, message });
                    }
                    state.holding = None;
                    on_event(Event::Finished { rank, index, result: &result });
                    results[index] = Some(result);
                    done += 1;
                    // Polled after each result too, so that a stop asked for after n results
                    // comes after n, however many results were waiting.
                    if done < tasks.len() && stop() {
                        return Err(root.stopped(local_holding, done));
                    }
                    root.hand_out(rank)?;
                }
                ToRoot::Failed { message } => {
                    return Err(ClusterError::Failed { rank, peer: state.peer.clone(), message });
                }
            }
        }
        if let Some(helper) = &local {
            match helper.results.try_recv() {
                Ok((index, result)) => {
                    idle = false;
                    let result =
                        result.map_err(|message| ClusterError::Failed { rank: 0, peer: Some(me.clone()), message })?;
                    local_holding = None;
                    on_event(Event::Finished { rank: 0, index, result: &result });
                    results[index] = Some(result);
                    done += 1;
                    if done < tasks.len() && stop() {
                        return Err(root.stopped(local_holding, done));
                    }
                    give_local(&mut root, &mut local_holding);
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    if local_holding.is_some() {
                        let message = "its work thread stopped (a panic)".into();
                        return Err(ClusterError::Failed { rank: 0, peer: Some(me.clone()), message });
                    }
                }
            }
        }
        let now = Instant::now();
        for (rank, state) in root.ranks.iter().enumerate() {
            let waited = now.duration_since(state.last_heard);
            if !state.dismissed && waited > options.rank_timeout {
                return Err(ClusterError::Silent { rank, peer: state.peer.clone(), waited, holding: state.holding });
            }
        }
        if idle {
            thread::sleep(POLL);
        }
    }
    Ok(results.into_iter().map(|r| r.expect("every item has a result once all are done")).collect())
}

/// A worker rank's side of [`distribute`]: asks rank 0 for items, works on each with `work`
/// (in a thread, while the main thread sends heartbeats) and sends the results back, until rank
/// 0 says it is done. Returns how many items this rank did.
///
/// A failed item is reported to rank 0 (which ends the job with the message) and returned as
/// [`ClusterError::Failed`]; a rank 0 that stays silent for longer than `options.rank_timeout`
/// gives [`ClusterError::RootSilent`].
pub fn serve<T, R, F>(transport: &dyn Transport, work: F, options: &QueueOptions) -> Result<usize, ClusterError>
where
    T: DeserializeOwned + Send + 'static,
    R: Serialize + Send + 'static,
    F: Fn(&T) -> Result<R, String> + Send + 'static,
{
    serve_interruptible(transport, move |task: &T, _: &dyn Fn() -> bool| work(task), options)
}

/// [`serve`] for a work function that can stop an item half done (the worker's side of
/// [`distribute_interruptible`]). While the item is worked on, the main thread also listens to
/// rank 0: when [`release`] abandons the item, the work function's interrupt test turns true,
/// the rank waits for it to return (up to `options.rank_timeout`), sends nothing and leaves.
pub fn serve_interruptible<T, R, F>(
    transport: &dyn Transport,
    work: F,
    options: &QueueOptions,
) -> Result<usize, ClusterError>
where
    T: DeserializeOwned + Send + 'static,
    R: Serialize + Send + 'static,
    F: Fn(&T, &dyn Fn() -> bool) -> Result<R, String> + Send + 'static,
{
    let helper = spawn_helper(work);
    let send = |message: &ToRoot<R>| {
        transport.send(0, &encode(message)).map_err(|message| ClusterError::Protocol { rank: 0, message })
    };
    send(&ToRoot::Hello { host: transport.host(), pid: std::process::id() })?;
    let mut count = 0;
    loop {
        let (index, task) = match wait_for_root::<T>(transport, options.rank_timeout)? {
            ToWorker::Done | ToWorker::Abandon => return Ok(count),
            ToWorker::Task { index, task } => (index, task),
        };
        if helper.tasks.send((index, task)).is_err() {
            return Err(fail(transport, &send, "its work thread stopped (a panic)".into()));
        }
        let mut beat = Instant::now();
        let result = loop {
            match helper.results.recv_timeout(POLL) {
                Ok((_, result)) => break result,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break Err("its work thread stopped (a panic)".into()),
            }
            match receive_from_root::<T>(transport)? {
                None => {}
                Some(ToWorker::Abandon) => {
                    helper.abandon.store(true, Ordering::Relaxed);
                    // Let the work function end cleanly (a game closes its engines); the
                    // result is not wanted.
                    let _ = helper.results.recv_timeout(options.rank_timeout);
                    return Ok(count);
                }
                Some(_) => {
                    let message = "a message other than Abandon while an item was in hand".into();
                    return Err(ClusterError::Protocol { rank: 0, message });
                }
            }
            if beat.elapsed() >= options.heartbeat {
                send(&ToRoot::Heartbeat)?;
                beat = Instant::now();
            }
        };
        match result {
            Ok(result) => send(&ToRoot::Result { index, result })?,
            Err(message) => return Err(fail(transport, &send, message)),
        }
        count += 1;
    }
}

/// Tells rank 0 that this rank failed, and returns the error for the caller.
fn fail<R>(
    transport: &dyn Transport,
    send: &dyn Fn(&ToRoot<R>) -> Result<(), ClusterError>,
    message: String,
) -> ClusterError {
    if let Err(e) = send(&ToRoot::Failed { message: message.clone() }) {
        return e;
    }
    ClusterError::Failed { rank: transport.rank(), peer: None, message }
}

/// Waits for rank 0's next message.
fn wait_for_root<T: DeserializeOwned>(
    transport: &dyn Transport,
    timeout: Duration,
) -> Result<ToWorker<T>, ClusterError> {
    let since = Instant::now();
    loop {
        if let Some(message) = receive_from_root(transport)? {
            return Ok(message);
        }
        let waited = since.elapsed();
        if waited > timeout {
            return Err(ClusterError::RootSilent { waited });
        }
        thread::sleep(POLL);
    }
}

/// Rank 0's next message if one is waiting; a message from another rank or one that cannot
/// be read is a protocol error.
fn receive_from_root<T: DeserializeOwned>(transport: &dyn Transport) -> Result<Option<ToWorker<T>>, ClusterError> {
    let Some((rank, bytes)) = transport.try_receive() else { return Ok(None) };
    if rank != 0 {
        return Err(ClusterError::Protocol { rank, message: "a message from a rank other than 0".into() });
    }
    decode(&bytes).map(Some).map_err(|message| ClusterError::Protocol { rank, message })
}

/// Sends every other rank away without work: for rank 0 when the job ends before the queue
/// starts (an unreadable input), so that the workers, waiting in [`serve`], leave cleanly.
pub fn dismiss_all(transport: &dyn Transport) -> Result<(), ClusterError> {
    let done = encode(&ToWorker::<()>::Done);
    for rank in 1..transport.size() {
        transport.send(rank, &done).map_err(|message| ClusterError::Protocol { rank, message })?;
    }
    Ok(())
}
