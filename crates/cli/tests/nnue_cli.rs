//! `bastion nnue train`: fine-tuning from a finished network and separate validation files,
//! several data files read as one;
//! `bastion nnue positions`: quiet positions from PGN games.

mod common;

use common::bastion;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Positions with White's search score; the validation file holds other positions.
const TRAIN: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1,0.5,1,30
rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2,0.5,1,40
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3,1,2,35
4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,1,3,250
4k3/8/8/8/8/8/8/R3K3 w Q - 0 1,1,4,900
";
const VALIDATION: &str = "\
rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2,0.5,9,25
4k3/4p3/8/8/8/8/8/4K3 w - - 0 1,0,10,-240
8/8/8/8/8/5k2/7q/4K3 w - - 0 1,0,11,-950
";

/// `bastion nnue train` on `d`'s `train.csv`, one epoch unless `extra` names `--epochs`.
fn train(d: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let epochs: &[&str] = if extra.contains(&"--epochs") { &[] } else { &["--epochs", "1"] };
    Command::new(env!("CARGO_BIN_EXE_bastion"))
        .args(["nnue", "train", "--threads", "1", "--batch", "4", "--json"])
        .args(epochs)
        .arg("--data")
        .arg(d.join("train.csv"))
        .arg("--out")
        .arg(d.join(out))
        .args(extra)
        .output()
        .expect("run bastion nnue train")
}

fn report(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

#[test]
fn fine_tuning_starts_from_the_given_network_and_validates_on_its_own_file() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("train.csv"), TRAIN).unwrap();
    std::fs::write(d.join("val.csv"), VALIDATION).unwrap();
    let val = d.join("val.csv");
    let val = val.to_str().unwrap();

    // A learning rate this small leaves the weights where they started.
    let tuned = report(&train(d, "tuned.nnue", &["--init", "<internal>", "--lr", "1e-12", "--validation", val]));
    assert_eq!(tuned["positions"], 5, "every training line is trained on");
    assert_eq!(tuned["validation_positions"], 3, "validation comes from its own file");
    let start = tuned["starting_validation_loss"].as_f64().expect("a starting loss with --init");
    let after = tuned["epochs"][0]["quantised_validation_loss"].as_f64().unwrap();
    assert!((start - after).abs() < 1e-4, "{start} -> {after}");

    // The built-in network knows these positions; random weights do not.
    let random = report(&train(d, "random.nnue", &["--lr", "1e-12", "--validation", val]));
    assert!(random["starting_validation_loss"].is_null());
    let random_loss = random["epochs"][0]["quantised_validation_loss"].as_f64().unwrap();
    assert!(after < random_loss / 2.0, "built-in {after} against random {random_loss}");

    // The written network is the engine's own file format (the current version), and it
    // holds the built-in network's weights.
    let bytes = std::fs::read(d.join("tuned.nnue")).unwrap();
    let written = bastion_engine::nnue::Network::from_bytes(&bytes).expect("the engine reads the file");
    assert!(written.to_bytes() == bytes, "written in the current version");
    assert!(bytes == bastion_engine::nnue::Network::builtin().to_bytes(), "the built-in network's weights");

    let clash = train(d, "clash.nnue", &["--init", "<internal>", "--resume"]);
    assert!(!clash.status.success(), "--init and --resume together are refused");
    let missing = train(d, "missing.nnue", &["--init", d.join("no-such.nnue").to_str().unwrap()]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such.nnue"));
}

/// Several `--data` and `--validation` files are read as one set each: split in two, the
/// same lines give the same counts and the same starting loss as the whole files.
#[test]
fn several_data_and_validation_files_are_one_set() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("train.csv"), TRAIN).unwrap();
    std::fs::write(d.join("val.csv"), VALIDATION).unwrap();
    let (train_lines, val_lines): (Vec<&str>, Vec<&str>) = (TRAIN.lines().collect(), VALIDATION.lines().collect());
    std::fs::write(d.join("t1.csv"), train_lines[..2].join("\n")).unwrap();
    std::fs::write(d.join("t2.csv"), train_lines[2..].join("\n")).unwrap();
    std::fs::write(d.join("v1.csv"), val_lines[..1].join("\n")).unwrap();
    std::fs::write(d.join("v2.csv"), val_lines[1..].join("\n")).unwrap();
    let path = |name: &str| d.join(name).to_str().unwrap().to_string();
    let whole =
        report(&train(d, "whole.nnue", &["--init", "<internal>", "--lr", "1e-12", "--validation", &path("val.csv")]));
    let run = |out: &str, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_bastion"))
            .args(["nnue", "train", "--threads", "1", "--batch", "4", "--json", "--epochs", "1"])
            .args(["--init", "<internal>", "--lr", "1e-12", "--out", &path(out)])
            .args(extra)
            .output()
            .expect("run bastion nnue train")
    };
    let split = report(&run(
        "split.nnue",
        &["--data", &path("t1.csv"), &path("t2.csv"), "--validation", &path("v1.csv"), &path("v2.csv")],
    ));
    assert_eq!(split["positions"], 5);
    assert_eq!(split["validation_positions"], 3);
    assert_eq!(split["starting_validation_loss"], whole["starting_validation_loss"]);
    // The option repeated reads the same way.
    let repeated = report(&run(
        "repeated.nnue",
        &["--data", &path("t1.csv"), "--data", &path("t2.csv"), "--validation", &path("val.csv")],
    ));
    assert_eq!(repeated["positions"], 5);
    // A missing file among several is named.
    let missing = run("missing.nnue", &["--data", &path("t1.csv"), &path("no-such.csv")]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such.csv"));
}

#[test]
fn king_buckets_start_from_the_given_network_and_resume_with_their_layout() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("train.csv"), TRAIN).unwrap();
    let kings = ["--king-buckets", "mirror4"];
    // Spread over four buckets, the built-in network starts where it was (on positions whose
    // kings stand on files a–d) and its file is the version with king buckets.
    let spread = report(&train(d, "spread.nnue", &[&["--init", "<internal>", "--lr", "1e-12"][..], &kings].concat()));
    assert_eq!(spread["positions"], 5);
    let net = bastion_engine::nnue::Network::load(&d.join("spread.nnue")).expect("the engine reads the file");
    assert_eq!(net.king_layout(), bastion_engine::nnue::KingLayout::by_name("mirror4").unwrap());
    let pos = bastion_core::Position::from_fen("1k1r4/ppp5/8/8/8/8/PPP5/1K1R4 w - - 0 1").unwrap();
    assert_eq!(net.evaluate(&pos), bastion_engine::nnue::Network::builtin().evaluate(&pos));
    // A resumed run keeps the checkpoint's layout and refuses another.
    let more = report(&train(d, "spread.nnue", &["--resume", "--epochs", "2"]));
    assert_eq!(more["epochs"].as_array().unwrap().len(), 1);
    let clash = train(d, "spread.nnue", &["--resume", "--epochs", "3", "--king-buckets", "none"]);
    assert!(!clash.status.success());
    assert!(String::from_utf8_lossy(&clash.stderr).contains("layout"));
    // Random weights with buckets train, and an unknown layout is refused by name.
    report(&train(d, "random.nnue", &kings));
    let bad = train(d, "bad.nnue", &["--king-buckets", "mirror5"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("mirror5"));
}

const GAMES: &str = r#"[Event "a"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 1-0

[Event "b"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "c"]
[Result "1/2-1/2"]

1. d4 e5 2. Qd3 Bb4+ 3. c3 Nc6 1/2-1/2

[Event "d"]
[Result "*"]

1. c4 *
"#;

#[test]
fn pgn_games_give_quiet_unique_positions_with_their_results() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("games.pgn"), GAMES).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bastion"))
        .args(["nnue", "positions", "--json", "--out"])
        .arg(d.join("pos.csv"))
        .arg(d.join("games.pgn"))
        .output()
        .unwrap();
    let rep = report(&out);
    assert_eq!(rep["games"], 3);
    assert_eq!(rep["unfinished_games_skipped"], 1);
    let text = std::fs::read_to_string(d.join("pos.csv")).unwrap();
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    // Game a: six positions before quiet moves (not the two before captures). Game b: three
    // new ones (its first three are game a's, and the last move captures). Game c: four
    // (the position in check is left out).
    let of = |result: &str, game: &str| lines.iter().filter(|l| l[1] == result && l[2] == game).count();
    assert_eq!((of("1", "1"), of("1", "2"), of("0.5", "3")), (6, 3, 4), "{text}");
    assert_eq!(lines.len(), 13);
    assert_eq!(rep["positions"], 13);

    let bad = Command::new(env!("CARGO_BIN_EXE_bastion"))
        .args(["nnue", "positions", "--out"])
        .arg(d.join("x.csv"))
        .arg(d.join("none.pgn"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("none.pgn"));
}

#[test]
fn self_play_writes_packed_records_that_resume_convert_and_train() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let bin = d.join("sp.bin");
    let bin = bin.to_str().unwrap();
    let generate =
        ["tune", "--generate", "6", "--nodes", "200", "--threads", "2", "--seed", "5", "--data", bin, "--json"];
    let first = report(&bastion(&generate));
    let positions = first["new_positions"].as_u64().unwrap();
    assert!(positions > 20, "{first}");
    assert_eq!(std::fs::metadata(bin).unwrap().len(), positions * 32, "32 bytes a position");
    let index = std::fs::read_to_string(format!("{bin}.games")).unwrap();
    assert_eq!(index.lines().count(), 6, "one index line a game: {index}");
    // Rerun: nothing left to play, nothing added.
    let again = report(&bastion(&generate));
    assert_eq!((again["new_games"].as_u64(), again["new_positions"].as_u64()), (Some(0), Some(0)));
    assert_eq!(std::fs::metadata(bin).unwrap().len(), positions * 32);

    let csv = d.join("sp.csv");
    let converted = report(&bastion(&["nnue", "convert", "--data", bin, "--out", csv.to_str().unwrap(), "--json"]));
    assert_eq!((converted["written"].as_u64(), converted["skipped"].as_u64()), (Some(positions), Some(0)));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.lines().all(|l| l.split(',').count() == 4), "fen,result,game,score lines");

    let out = d.join("net.nnue");
    let trained = report(&bastion(&[
        "nnue",
        "train",
        "--data",
        bin,
        "--epochs",
        "1",
        "--threads",
        "1",
        "--batch",
        "16",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert_eq!(
        trained["positions"].as_u64().unwrap() + trained["validation_positions"].as_u64().unwrap(),
        positions,
        "every record read"
    );
    assert_eq!(trained["skipped_lines"], 0);
}

#[test]
fn syzygy_tables_end_self_play_games() {
    let tables = std::env::var_os("SYZYGY_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy"));
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let bad = report_err(&bastion(&[
        "tune",
        "--generate",
        "2",
        "--data",
        d.join("x.bin").to_str().unwrap(),
        "--syzygy",
        d.to_str().unwrap(),
    ]));
    assert!(bad.contains("adjudication"), "{bad}");
    if !tables.join("KQvK.rtbw").is_file() {
        eprintln!("skipped: no Syzygy tables in {} (set SYZYGY_DIR)", tables.display());
        return;
    }
    let r = report(&bastion(&[
        "tune",
        "--generate",
        "40",
        "--nodes",
        "200",
        "--threads",
        "2",
        "--seed",
        "6001",
        "--json",
        "--data",
        d.join("sz.bin").to_str().unwrap(),
        "--syzygy",
        tables.to_str().unwrap(),
    ]));
    assert!(r["ended_by_tablebase"].as_u64().unwrap() >= 1, "{r}");
}

fn report_err(out: &std::process::Output) -> String {
    assert!(!out.status.success(), "should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn stats_count_men_results_and_scores_of_data_and_games() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let data = d.join("d.csv");
    std::fs::write(
        &data,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1,1,0,40\n8/8/4k3/8/8/3K4/4P3/8 w - - 0 60,0.5,1,-260\n",
    )
    .unwrap();
    let out = bastion(&["nnue", "stats", "--data", data.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "2 positions (0 unreadable)");
    assert_eq!(lines[1], "men on the board: 2–5 50.0 %, 6–8 0.0 %, 9–12 0.0 %, 13–20 0.0 %, 21–32 50.0 %");
    assert_eq!(lines[2], "White's results: won 50.0 %, drawn 50.0 %, lost 0.0 %");
    assert_eq!(lines[3], "mean size of the scores: 1.50 pawns (2 scored)");

    // A PGN game: the positions before each move, with the game's result and no scores.
    let pgn = d.join("g.pgn");
    std::fs::write(&pgn, "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n").unwrap();
    let out = bastion(&["nnue", "stats", "--pgn", pgn.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["positions"], 4);
    assert_eq!(doc["white_results"]["lost"], 4);
    assert_eq!(doc["scored"], 0);

    let out = bastion(&["nnue", "stats"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--data"));
    let out = bastion(&["nnue", "stats", "--data", d.join("missing.bin").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.bin"));
}

#[test]
fn self_play_starts_from_the_positions_of_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let starts = d.join("endings.epd");
    std::fs::write(&starts, "8/5k2/8/3p4/8/2R5/5K2/8 w - - id \"rook\";\n8/8/3k4/8/2PK4/8/8/8 b - - id \"pawn\";\n")
        .unwrap();
    let csv = d.join("end.csv");
    let r = report(&bastion(&[
        "tune",
        "--generate",
        "4",
        "--starts",
        starts.to_str().unwrap(),
        "--random-plies",
        "0",
        "--nodes",
        "200",
        "--seed",
        "3",
        "--json",
        "--data",
        csv.to_str().unwrap(),
    ]));
    assert_eq!(r["new_games"], 4, "{r}");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(!text.is_empty());
    for line in text.lines() {
        let board = line.split(' ').next().unwrap();
        assert!(board.chars().filter(char::is_ascii_alphabetic).count() <= 4, "not from a start: {line}");
    }
    let bad = report_err(&bastion(&[
        "tune",
        "--generate",
        "1",
        "--starts",
        d.join("none.epd").to_str().unwrap(),
        "--data",
        d.join("x.csv").to_str().unwrap(),
    ]));
    assert!(bad.contains("none.epd"), "{bad}");
}
