//! Matches between Debian's engines (`apt-get install stockfish toga2
//! glaurung ethereal-chess`); `.ci/run` installs them and runs these.

use bastion_arena::openings;
use bastion_arena::pgn;
use bastion_arena::referee::{Adjudication, EngineConfig, RefereeConfig, ResignRule};
use bastion_arena::time_control::TimeControl;
use bastion_arena::tournament::{run_match, MatchConfig};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

fn debian(name: &str) -> EngineConfig {
    let games = format!("/usr/games/{name}");
    let command = if std::path::Path::new(&games).exists() { games } else { name.to_string() };
    EngineConfig { name: name.into(), command, options: vec![("Hash".into(), "16".into())], ..EngineConfig::default() }
}

#[test]
#[ignore = "needs Debian engines; run by .ci/run"]
fn debian_engines_play_clean_matches() {
    let openings = openings::load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.epd")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (a, b) in [("stockfish", "toga2"), ("ethereal-chess", "glaurung")] {
        let out = dir.path().join(format!("{a}-{b}.pgn"));
        let config = MatchConfig {
            engines: [debian(a), debian(b)],
            referee: RefereeConfig {
                time_control: TimeControl::parse_clock("2+0.05").unwrap(),
                time_margin: Duration::from_millis(200),
                move_timeout: Duration::from_secs(30),
                adjudication: Adjudication {
                    resign: Some(ResignRule { moves: 3, score_cp: 600 }),
                    max_moves: Some(100),
                    ..Adjudication::default()
                },
            },
            openings: openings.clone(),
            games: 4,
            repeat: true,
            concurrency: 2,
            sprt: None,
            pgn_out: Some(out.clone()),
            resume: false,
            event: "debian".into(),
            learning: None,
        };
        let report = run_match(&config, Arc::new(AtomicBool::new(false)), |_, _| {}).unwrap();
        assert_eq!(report.games, 4, "{}", report.final_report());
        // Real engines neither crash nor play illegal moves; a rare flag is tolerated.
        for f in report.faults.values() {
            assert_eq!((f.crashes, f.illegal_moves), (0, 0), "{}", report.final_report());
        }
        let games = pgn::read_games(std::fs::File::open(&out).unwrap()).unwrap();
        assert_eq!(games.len(), 4);
        for g in &games {
            let detail = g.header("TerminationDetails").unwrap_or("");
            assert!(g.error.is_none(), "{a}-{b}: {:?}", g.error);
            // A flag on a loaded machine may end a game early; anything else plays on.
            assert!(g.moves.len() > 4 || g.header("Termination") == Some("time forfeit"), "{a}-{b}: {detail}");
        }
    }
}
