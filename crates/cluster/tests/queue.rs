//! The work queue between threads of one process (`local_world`): results in input order, work
//! spread over every rank, and each way a job can end early ends with a message that names the
//! rank instead of a hang. The same queue runs over MPI in `tests/mpi.rs`.

use bastion_cluster::protocol::{decode, encode, ToRoot, ToWorker};
use bastion_cluster::transport::{local_world, LocalTransport};
use bastion_cluster::{
    distribute, distribute_interruptible, release, serve, serve_interruptible, ClusterError, Event, QueueOptions,
    Transport,
};
use std::thread;
use std::time::Duration;

fn fast() -> QueueOptions {
    QueueOptions { heartbeat: Duration::from_millis(20), rank_timeout: Duration::from_millis(400), root_works: true }
}

/// Squares, with a little work so that the ranks take turns.
fn square(x: &u64) -> Result<u64, String> {
    thread::sleep(Duration::from_millis(1 + x % 3));
    Ok(x * x)
}

/// Starts `serve` on every rank but 0, returning their handles and rank 0.
fn start_workers<F>(
    world: Vec<LocalTransport>,
    work: F,
    options: &QueueOptions,
) -> (LocalTransport, Vec<thread::JoinHandle<Result<usize, ClusterError>>>)
where
    F: Fn(&u64) -> Result<u64, String> + Send + Clone + 'static,
{
    let mut ranks = world.into_iter();
    let root = ranks.next().expect("rank 0");
    let handles = ranks
        .map(|t| {
            let (work, options) = (work.clone(), options.clone());
            thread::spawn(move || serve(&t, work, &options))
        })
        .collect();
    (root, handles)
}

#[test]
fn results_come_back_in_input_order_from_every_rank() {
    let tasks: Vec<u64> = (0..60).collect();
    let (root, workers) = start_workers(local_world(4), square, &fast());
    let mut done_by = [0usize; 4];
    let mut joined = Vec::new();
    let results = distribute(&root, &tasks, square, &fast(), &|| false, |e| match e {
        Event::Joined { rank, .. } => joined.push(rank),
        Event::Finished { rank, index, result } => {
            assert_eq!(*result, tasks[index] * tasks[index]);
            done_by[rank] += 1;
        }
    })
    .unwrap();
    assert_eq!(results, tasks.iter().map(|x| x * x).collect::<Vec<_>>());
    joined.sort_unstable();
    assert_eq!(joined, [0, 1, 2, 3]);
    let served: Vec<usize> = workers.into_iter().map(|h| h.join().unwrap().unwrap()).collect();
    assert_eq!(served, done_by[1..]);
    assert_eq!(done_by.iter().sum::<usize>(), tasks.len());
    assert!(done_by.iter().all(|&n| n > 0), "every rank works: {done_by:?}");
}

#[test]
fn one_rank_does_all_the_work_itself() {
    let root = local_world(1).pop().unwrap();
    let tasks: Vec<u64> = (0..5).collect();
    let results = distribute(&root, &tasks, square, &fast(), &|| false, |_| {}).unwrap();
    assert_eq!(results, [0, 1, 4, 9, 16]);
}

#[test]
fn rank_zero_can_leave_the_work_to_the_others() {
    let options = QueueOptions { root_works: false, ..fast() };
    let tasks: Vec<u64> = (0..10).collect();
    let (root, workers) = start_workers(local_world(3), square, &options);
    let mut by_root = 0;
    let results = distribute(&root, &tasks, square, &options, &|| false, |e| {
        if let Event::Finished { rank: 0, .. } = e {
            by_root += 1;
        }
    })
    .unwrap();
    assert_eq!(results.len(), 10);
    assert_eq!(by_root, 0);
    let served: usize = workers.into_iter().map(|h| h.join().unwrap().unwrap()).sum();
    assert_eq!(served, 10);
}

#[test]
fn a_worker_that_dies_holding_an_item_ends_the_job_with_its_rank() {
    let mut world = local_world(2);
    let worker = world.pop().unwrap();
    let root = world.pop().unwrap();
    // Rank 1 joins, takes an item and dies (its end of the transport is dropped).
    let dying = thread::spawn(move || {
        worker.send(0, &encode(&ToRoot::<u64>::Hello { host: "node7".into(), pid: 4242 })).unwrap();
        loop {
            if let Some((_, bytes)) = worker.try_receive() {
                let message: ToWorker<u64> = decode(&bytes).unwrap();
                assert!(matches!(message, ToWorker::Task { .. }));
                return;
            }
            thread::sleep(Duration::from_millis(1));
        }
    });
    let slow = |x: &u64| {
        thread::sleep(Duration::from_millis(50));
        Ok(*x)
    };
    let tasks: Vec<u64> = (0..100).collect();
    let err = distribute(&root, &tasks, slow, &fast(), &|| false, |_| {}).unwrap_err();
    dying.join().unwrap();
    match &err {
        ClusterError::Silent { rank: 1, holding: Some(_), peer: Some(peer), .. } => assert_eq!(peer.pid, 4242),
        other => panic!("expected rank 1 to be reported silent, got {other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("rank 1 (pid 4242 on node7)") && text.contains("item"), "{text}");
}

#[test]
fn a_rank_that_never_starts_ends_the_job() {
    // Rank 2 exists but never says hello.
    let mut world = local_world(3);
    let _never = world.pop().unwrap();
    let worker = world.pop().unwrap();
    let root = world.pop().unwrap();
    let options = fast();
    let w = {
        let options = options.clone();
        thread::spawn(move || serve(&worker, square, &options))
    };
    let tasks: Vec<u64> = (0..3).collect();
    let err = distribute(&root, &tasks, square, &options, &|| false, |_| {}).unwrap_err();
    assert!(matches!(err, ClusterError::Silent { rank: 2, peer: None, holding: None, .. }), "{err:?}");
    assert!(err.to_string().contains("not yet started"), "{err}");
    // Rank 1 got `Done` before rank 0 gave up, or gives up on rank 0 itself: no hang either way.
    let _ = w.join().unwrap();
}

#[test]
fn a_failed_item_ends_the_job_with_the_ranks_message() {
    let picky = |x: &u64| if *x == 7 { Err("cannot start engine 'nonsense'".to_string()) } else { square(x) };
    let options = QueueOptions { root_works: false, ..fast() };
    let (root, workers) = start_workers(local_world(2), picky, &options);
    let tasks: Vec<u64> = (0..20).collect();
    let err = distribute(&root, &tasks, picky, &options, &|| false, |_| {}).unwrap_err();
    assert!(matches!(&err, ClusterError::Failed { rank: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("cannot start engine 'nonsense'"), "{err}");
    let served = workers.into_iter().next().unwrap().join().unwrap();
    assert!(matches!(served, Err(ClusterError::Failed { .. })), "{served:?}");
}

#[test]
fn a_failure_on_rank_zero_ends_the_job_too() {
    let root = local_world(1).pop().unwrap();
    let fails = |_: &u64| Err::<u64, _>("no engine".to_string());
    let err = distribute(&root, &[1u64], fails, &fast(), &|| false, |_| {}).unwrap_err();
    assert!(matches!(&err, ClusterError::Failed { rank: 0, .. }), "{err:?}");
}

#[test]
fn a_worker_leaves_when_rank_zero_is_silent() {
    let mut world = local_world(2);
    let worker = world.pop().unwrap();
    let _root = world.pop().unwrap(); // alive but never answers
    let err = serve(&worker, square, &fast()).unwrap_err();
    assert!(matches!(err, ClusterError::RootSilent { .. }), "{err:?}");
    assert!(err.to_string().contains("rank 0 sent nothing"), "{err}");
}

#[test]
fn a_stop_request_lists_the_items_still_out() {
    let (root, workers) = start_workers(local_world(2), square, &fast());
    let tasks: Vec<u64> = (0..50).collect();
    let finished = std::cell::RefCell::new(Vec::new());
    let joined = std::cell::Cell::new(0);
    // Once both ranks hold work, each result is followed at once by a new item for its rank,
    // so some item is always out when the stop comes.
    let stop = || finished.borrow().len() >= 5 && joined.get() == 2;
    let err = distribute(&root, &tasks, square, &fast(), &stop, |e| match e {
        Event::Joined { .. } => joined.set(joined.get() + 1),
        Event::Finished { index, .. } => finished.borrow_mut().push(index),
    })
    .unwrap_err();
    let finished = finished.into_inner();
    match &err {
        ClusterError::Stopped { done, total: 50, out } => {
            assert_eq!(*done, finished.len(), "the stop comes right after the result that asked for it");
            assert!(!out.is_empty(), "{err}");
            assert!(out.iter().all(|(_, index)| !finished.contains(index)), "{err}: {finished:?}");
        }
        other => panic!("expected a stop, got {other:?}"),
    }
    assert!(err.to_string().contains(&format!("after {} of 50 items", finished.len())), "{err}");
    // The caller decided the stop, so it sends the worker away: its work function cannot be
    // interrupted, so it finishes its item, sends nothing and leaves cleanly.
    let ClusterError::Stopped { out, .. } = &err else { unreachable!() };
    release(&root, out);
    for w in workers {
        assert!(w.join().unwrap().is_ok());
    }
    drop(root);
}

#[test]
fn a_released_rank_abandons_its_item_at_once_and_sends_no_result() {
    // An item that runs until it is interrupted (or for a minute, which would fail the test).
    let endless = |x: &u64, interrupted: &dyn Fn() -> bool| {
        let since = std::time::Instant::now();
        while !interrupted() {
            if since.elapsed() > Duration::from_secs(60) {
                return Err("never interrupted".to_string());
            }
            thread::sleep(Duration::from_millis(1));
        }
        Ok(*x)
    };
    let mut world = local_world(2).into_iter();
    let root = world.next().unwrap();
    let worker = world.next().unwrap();
    let handle = thread::spawn(move || serve_interruptible(&worker, endless, &fast()));
    let held = std::cell::Cell::new(false);
    let started = std::time::Instant::now();
    // Stop once the worker holds an item and has sent a heartbeat or two while working on it.
    let stop = || held.get() && started.elapsed() > Duration::from_millis(100);
    let err = distribute_interruptible(&root, &[7u64, 8, 9], endless, &fast(), &stop, |e| {
        if let Event::Joined { rank: 1, .. } = e {
            held.set(true);
        }
    })
    .unwrap_err();
    let ClusterError::Stopped { done: 0, out, .. } = &err else { panic!("expected a stop, got {err:?}") };
    assert!(out.contains(&(1, 1)), "{err}");
    let released = std::time::Instant::now();
    release(&root, out);
    assert_eq!(handle.join().unwrap().unwrap(), 0, "the abandoned item is not counted");
    assert!(released.elapsed() < Duration::from_secs(5), "the worker took {:?} to leave", released.elapsed());
    while let Some((_, bytes)) = root.try_receive() {
        let message: ToRoot<u64> = decode(&bytes).unwrap();
        assert!(matches!(message, ToRoot::Heartbeat), "only heartbeats after the stop, got {message:?}");
    }
}

#[test]
fn a_result_for_an_item_not_held_is_a_protocol_error() {
    let mut world = local_world(2);
    let liar = world.pop().unwrap();
    let root = world.pop().unwrap();
    liar.send(0, &encode(&ToRoot::<u64>::Hello { host: "h".into(), pid: 1 })).unwrap();
    liar.send(0, &encode(&ToRoot::Result { index: 3, result: 9u64 })).unwrap();
    let options = QueueOptions { root_works: false, ..fast() };
    let tasks: Vec<u64> = (0..10).collect();
    let err = distribute(&root, &tasks, square, &options, &|| false, |_| {}).unwrap_err();
    assert!(matches!(&err, ClusterError::Protocol { rank: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("item 4 that it did not hold"), "{err}");
}
