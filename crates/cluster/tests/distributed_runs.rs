//! Distributed test runs against the single-process ones, without MPI: the items go through the
//! queue between threads (`local_world`) and the results must equal the single-process run's.

mod common;

use bastion_arena::openings::Opening;
use bastion_arena::referee::{EngineConfig, RefereeConfig};
use bastion_arena::stats::SprtParams;
use bastion_arena::time_control::TimeControl;
use bastion_arena::tournament::{run_match, scheduled_games, MatchConfig, MatchReport, Resumed, ScheduledGame};
use bastion_cluster::games::{game_worker, lead_match};
use bastion_cluster::mates::{mate_worker, MateSettings, MateTask};
use bastion_cluster::ordered::distribute_in_order;
use bastion_cluster::transport::local_world;
use bastion_cluster::{serve, serve_interruptible, ClusterError, QueueOptions};
use bastion_core::Position;
use bastion_solver::epd::parse_suite;
use bastion_solver::suite::{run_entry_with, Row};
use bastion_solver::Solver;
use common::pgn_without_times;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// Three openings of the arena's test set.
const OPENINGS: [&str; 3] = [
    "rn1qkb1r/pbp2ppp/1p2p3/3n4/3P4/P1N2N2/1P2PPPP/R1BQKB1R w KQkq - 0 7",
    "1rbqkbnr/ppp2ppp/2np4/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQk - 1 5",
    "rnbqk2r/pp1p1ppp/4pn2/2P5/1bP5/2N5/PPQ1PPPP/R1B1KBNR b KQkq - 0 5",
];

fn engine(name: &str, command: String) -> EngineConfig {
    EngineConfig { name: name.into(), command, ..EngineConfig::default() }
}

fn config(engines: [EngineConfig; 2], time_control: TimeControl, games: usize) -> MatchConfig {
    MatchConfig {
        engines,
        referee: RefereeConfig { time_control, move_timeout: Duration::from_secs(60), ..RefereeConfig::default() },
        openings: OPENINGS
            .iter()
            .map(|fen| Opening { start: Position::from_fen(fen).unwrap(), moves: Vec::new(), name: None })
            .collect(),
        games,
        repeat: true,
        concurrency: 1,
        sprt: None,
        pgn_out: None,
        resume: false,
        event: "distributed".into(),
        learning: None,
    }
}

/// Plays `config` on `ranks` local ranks; returns rank 0's answer, the PGN it wrote and how
/// many games each worker rank played.
fn distributed(config: &MatchConfig, ranks: usize) -> (Result<MatchReport, ClusterError>, String, Vec<usize>) {
    distributed_after(config, &Resumed::default(), ranks)
}

/// [`distributed`] for a match resuming the games in `resumed`.
fn distributed_after(
    config: &MatchConfig,
    resumed: &Resumed,
    ranks: usize,
) -> (Result<MatchReport, ClusterError>, String, Vec<usize>) {
    let options = QueueOptions { rank_timeout: Duration::from_secs(60), ..QueueOptions::default() };
    let mut world = local_world(ranks).into_iter();
    let root = world.next().unwrap();
    let workers: Vec<_> = world
        .map(|t| {
            let (config, options) = (config.clone(), options.clone());
            thread::spawn(move || serve_interruptible(&t, game_worker(config), &options))
        })
        .collect();
    let mut pgn = Vec::new();
    let report = lead_match(&root, config, resumed, &options, &|| false, Some(&mut pgn), |_| {});
    let played = workers.into_iter().map(|w| w.join().unwrap().expect("every worker is dismissed")).collect();
    (report, String::from_utf8(pgn).unwrap(), played)
}

/// `report` with the seconds each engine spent set to zero: a run's wall times are its own,
/// while its moves, depths and everything else must match another run's.
fn without_times(report: &MatchReport) -> MatchReport {
    let mut report = report.clone();
    for t in report.time_use.values_mut() {
        t.seconds = 0.0;
    }
    report
}

/// The number of moves with a search comment (`score/depth time`, not `book`) in a PGN text.
fn pgn_moves(pgn: &str) -> u64 {
    // A game's last comment may go on with how it ended: `+0.12/9 0.004s, draw by ...`.
    let timed = |c: &str| {
        let c = c.split(',').next().unwrap_or("").trim_end();
        c.strip_suffix('s').is_some_and(|c| c.ends_with(|d: char| d.is_ascii_digit()))
    };
    pgn.split('{').skip(1).filter(|c| c.split('}').next().is_some_and(timed)).count() as u64
}

/// The Round tags of a PGN text, in order.
fn rounds(pgn: &str) -> Vec<String> {
    pgn.lines().filter_map(|l| l.strip_prefix("[Round \"")).map(|r| r.trim_end_matches("\"]").to_string()).collect()
}

#[test]
fn a_match_at_fixed_nodes_gives_the_single_process_report_and_pgn() {
    let bastion = bastion_test_engine::cargo_bin("bastion-cli", "bastion");
    let command = format!("'{}' uci", bastion.display());
    // A second engine that searches differently, so that games are won, lost and drawn.
    let mut b = engine("B", command.clone());
    b.options = [("NullMove", "false"), ("LateMoveReductions", "false"), ("Contempt", "100")]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .to_vec();
    let mut config = config([engine("A", command), b], TimeControl::Nodes(300), 6);
    config.referee.adjudication.max_moves = Some(60);
    let dir = tempfile::tempdir().unwrap();
    let pgn_file = dir.path().join("match.pgn");
    config.pgn_out = Some(pgn_file.clone());
    let single = run_match(&config, Arc::new(AtomicBool::new(false)), |_, _| {}).unwrap();
    let single_pgn = std::fs::read_to_string(&pgn_file).unwrap();
    assert_eq!(single.games, 6, "{}", single.final_report());
    assert!(single.draws < 6, "decided games too: {}", single.final_report());

    let (report, pgn, played) = distributed(&config, 3);
    let report = report.unwrap();
    let (report, single) = (without_times(&report), without_times(&single));
    assert_eq!(report.time_use["A"].moves + report.time_use["B"].moves, pgn_moves(&single_pgn));
    assert_eq!(report.final_report(), single.final_report());
    assert_eq!(serde_json::to_value(&report).unwrap(), serde_json::to_value(&single).unwrap());
    assert_eq!(rounds(&pgn), ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"], "game order");
    assert_eq!(pgn_without_times(&pgn), pgn_without_times(&single_pgn));
    assert_eq!(played.len(), 2);
}

#[test]
fn a_resumed_match_plays_and_counts_what_bastion_match_resume_does() {
    let bastion = bastion_test_engine::cargo_bin("bastion-cli", "bastion");
    let command = format!("'{}' uci", bastion.display());
    let mut b = engine("B", command.clone());
    b.options = vec![("NullMove".to_string(), "false".to_string())];
    let mut config = config([engine("A", command), b], TimeControl::Nodes(300), 4);
    config.referee.adjudication.max_moves = Some(40);
    let dir = tempfile::tempdir().unwrap();
    let (single_file, cluster_file) = (dir.path().join("single.pgn"), dir.path().join("cluster.pgn"));
    config.pgn_out = Some(single_file.clone());
    run_match(&config, Arc::new(AtomicBool::new(false)), |_, _| {}).unwrap();
    // An interrupted run left the first game of pair 3 behind: it is dropped and played again.
    let mut text = std::fs::read_to_string(&single_file).unwrap();
    let lone = text.split("\n\n[Event").next().unwrap().replace("[Round \"1.1\"]", "[Round \"3.1\"]");
    text.push_str(&format!("{lone}\n\n"));
    std::fs::write(&single_file, &text).unwrap();
    std::fs::write(&cluster_file, &text).unwrap();

    config.games = 6;
    config.resume = true;
    let single = run_match(&config, Arc::new(AtomicBool::new(false)), |_, _| {}).unwrap();
    let single_pgn = std::fs::read_to_string(&single_file).unwrap();
    config.pgn_out = Some(cluster_file.clone());
    let resumed = Resumed::read(&config).unwrap();
    assert_eq!(resumed.games(), 4, "two complete pairs kept");
    assert!(resumed.is_done(0) && resumed.is_done(1) && !resumed.is_done(2));
    let (report, new_games, played) = distributed_after(&config, &resumed, 2);
    let report = report.unwrap();
    assert_eq!(rounds(&new_games), ["3.1", "3.2"], "only the incomplete pair is played");
    assert!(played.iter().sum::<usize>() <= 2, "{played:?}");
    let cluster_pgn = std::fs::read_to_string(&cluster_file).unwrap() + &new_games;
    assert_eq!(pgn_without_times(&cluster_pgn), pgn_without_times(&single_pgn));
    let (report, single) = (without_times(&report), without_times(&single));
    assert_eq!(serde_json::to_value(&report).unwrap(), serde_json::to_value(&single).unwrap());
    assert_eq!((report.games, report.resumed_games), (6, 4));
}

#[test]
fn the_schedule_is_in_game_order() {
    let config = config([engine("A", "a".into()), engine("B", "b".into())], TimeControl::Nodes(1), 5);
    let games = scheduled_games(&config);
    let first: Vec<(usize, bool, &str)> =
        games.iter().map(|g: &ScheduledGame| (g.opening, g.first_is_white, g.round.as_str())).collect();
    assert_eq!(
        first,
        [(0, true, "1.1"), (0, false, "1.2"), (1, true, "2.1"), (1, false, "2.2"), (2, true, "3.1"), (2, false, "3.2")]
    );
}

#[test]
fn an_sprt_that_decides_stops_every_rank() {
    // The first engine crashes at its second move of every game (a new process each game), so
    // it loses them all and the test accepts H0 (after about 40 games) long before the 200 are
    // played.
    let fake = bastion_test_engine::command();
    let engines = [
        engine("Crashy", format!("{fake} --play first --crash-after 1")),
        engine("Good", format!("{fake} --play first")),
    ];
    let mut config = config(engines, TimeControl::Nodes(100), 200);
    config.sprt = Some(SprtParams::new(0.0, 50.0, 0.05, 0.05).unwrap());
    let (report, pgn, _) = distributed(&config, 3);
    let report = report.unwrap();
    assert_eq!(report.finished.as_deref(), Some("sprt"), "{}", report.final_report());
    assert_eq!(report.sprt.unwrap().result, "H0");
    assert!(report.games < 100 && report.losses == report.games, "{}", report.final_report());
    let written = rounds(&pgn);
    assert_eq!(written.len() as u64, report.games, "every counted game is in the PGN, and only those");
    let order = scheduled_games(&config).into_iter().map(|g| g.round).filter(|r| written.contains(r));
    assert_eq!(written, order.collect::<Vec<_>>(), "in game order");
}

/// Short mates, one listed longer than it is.
const MATES: &str = "\
7k/8/6K1/8/8/8/8/R7 w - - bm #1; id \"corner\";
# a comment line, skipped as `bastion solve --epd` skips it
r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1 bm #1; id \"scholar\";
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm #1; id \"rook\";
k7/8/1K6/8/8/8/8/7R w - - bm #2; id \"two\";
";

/// A row without what depends on the clock.
fn untimed(row: &Row) -> Row {
    Row { seconds: 0.0, nps: 0.0, ..row.clone() }
}

#[test]
fn a_mate_suite_gives_the_single_process_rows() {
    let entries = parse_suite(MATES).unwrap();
    let settings = MateSettings { hash: 4, limit: Duration::from_secs(60), shortest: true };
    let mut solver = Solver::try_new(settings.hash).unwrap();
    let single: Vec<Row> =
        entries.iter().map(|e| untimed(&run_entry_with(&mut solver, e, settings.limit, settings.shortest))).collect();
    assert_eq!(single.iter().filter(|r| r.solved).count(), 4, "{single:#?}");

    let options = QueueOptions { rank_timeout: Duration::from_secs(60), ..QueueOptions::default() };
    let mut world = local_world(3).into_iter();
    let root = world.next().unwrap();
    let workers: Vec<_> = world
        .map(|t| {
            let options = options.clone();
            thread::spawn(move || serve(&t, mate_worker(settings), &options))
        })
        .collect();
    let tasks: Vec<MateTask> = entries.iter().map(MateTask::of).collect();
    let mut seen = Vec::new();
    let rows = distribute_in_order(
        &root,
        &tasks,
        mate_worker(settings),
        &options,
        &|| false,
        |_, _| {},
        |index, _, row: &Row| seen.push((index, row.line)),
    )
    .unwrap();
    for w in workers {
        w.join().unwrap().unwrap();
    }
    assert_eq!(rows.iter().map(untimed).collect::<Vec<_>>(), single);
    let lines: Vec<(usize, usize)> = entries.iter().enumerate().map(|(i, e)| (i, e.line)).collect();
    assert_eq!(seen, lines, "each row is seen once, in suite order");
}
