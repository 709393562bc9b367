//! The distributed EPD suite against the single-process one, without MPI: the positions go
//! through the queue between threads (`local_world`), each searched by its own fake engine
//! with `run_position`, and the assembled report must equal `run_suite` over the whole suite.

use bastion_arena::referee::EngineConfig;
use bastion_arena::suite::{run_suite, SuiteConfig, SuiteReport};
use bastion_cluster::suite::{assemble_report, read_suite, run_position, SuiteTask};
use bastion_cluster::transport::local_world;
use bastion_cluster::{distribute, serve, QueueOptions};
use bastion_core::epd::Epd;
use std::thread;
use std::time::Duration;

const SUITE: &str = include_str!("data/suite.epd");

fn config() -> SuiteConfig {
    let command = format!("{} --play greedy", bastion_test_engine::command());
    // Name = command: the report is headed by the engine's own `id name`, as in `bastion epd`.
    SuiteConfig {
        engine: EngineConfig { name: command.clone(), command, ..EngineConfig::default() },
        times: vec![Duration::from_secs(10)],
        threads: Some(1),
        hash: Some(16),
        margin: Duration::from_secs(5),
        nodes: None,
    }
}

/// The report as JSON without the solve times, which depend on the machine's load (the
/// table at the one time limit, far above them, does not).
fn without_times(report: &SuiteReport) -> serde_json::Value {
    let mut v = serde_json::to_value(report).unwrap();
    for r in v["results"].as_array_mut().unwrap() {
        r["solve_time"] = serde_json::Value::Null;
    }
    v
}

#[test]
fn the_distributed_report_equals_the_single_process_one() {
    let tasks = read_suite("suite.epd", SUITE, None).unwrap();
    let entries: Vec<Epd> = tasks.iter().map(|t| Epd::parse(&t.line).unwrap()).collect();
    let single = run_suite(&entries, &config(), &|| false, |_| {}).unwrap();
    assert_eq!(single.solved, 4, "{}", single.to_text());

    let options = QueueOptions { rank_timeout: Duration::from_secs(60), ..QueueOptions::default() };
    let mut ranks = local_world(3).into_iter();
    let root = ranks.next().unwrap();
    let workers: Vec<_> = ranks
        .map(|t| {
            let (cfg, options) = (config(), options.clone());
            thread::spawn(move || serve(&t, move |task: &SuiteTask| run_position(&cfg, task), &options))
        })
        .collect();
    let cfg = config();
    let outcomes =
        distribute(&root, &tasks, move |task: &SuiteTask| run_position(&cfg, task), &options, &|| false, |_| {})
            .unwrap();
    for w in workers {
        w.join().unwrap().unwrap();
    }
    let distributed = assemble_report(&config(), outcomes).unwrap();
    assert_eq!(distributed.to_text(), single.to_text());
    assert_eq!(without_times(&distributed), without_times(&single));
    assert_ne!(distributed.engine, config().engine.name, "the engine's id name heads the report");
}

#[test]
fn a_position_is_numbered_by_its_place_in_the_suite() {
    let tasks = read_suite("suite.epd", SUITE, None).unwrap();
    let numbers: Vec<usize> = tasks.iter().map(|t| t.index).collect();
    assert_eq!(numbers, (1..=7).collect::<Vec<_>>());
    let outcome = run_position(&config(), &tasks[5]).unwrap();
    assert_eq!(outcome.result.index, 6);
    assert_eq!(outcome.result.id.as_deref(), Some("mate-h8"));
    assert!(outcome.result.solved);
}

#[test]
fn suites_are_read_as_bastion_epd_reads_them() {
    assert_eq!(read_suite("s", SUITE, Some(2)).unwrap().len(), 2);
    let err = read_suite("s.epd", "# comment\n\n4k3/8/8 w - - bm Kf2;\n", None).unwrap_err();
    assert!(err.starts_with("s.epd:3:"), "{err}");
    let err = read_suite("empty.epd", "# nothing\n\n", None).unwrap_err();
    assert_eq!(err, "empty.epd holds no positions");
}

#[test]
fn an_engine_that_cannot_start_fails_the_item() {
    let mut cfg = config();
    cfg.engine.command = "/nonexistent/engine".into();
    let task = SuiteTask { index: 1, line: "4k3/8/8/3q4/8/8/3R4/4K3 w - - bm Rxd5;".into() };
    let err = run_position(&cfg, &task).unwrap_err();
    assert!(err.contains("cannot start /nonexistent/engine"), "{err}");
}
