//! The `bastion uci` engine driven over stdin/stdout as a GUI would: hostile input,
//! answers while searching, prompt `stop`, ponder and a clock that is never overrun.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Drives `bastion uci` as a GUI would.
#[test]
fn compiled_engine_survives_hostile_input_and_stops_promptly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bastion"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("engine binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<(Instant, String)>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    let wait_for = |prefix: &str, limit: Duration| -> (Instant, String) {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok((t, l)) if l.starts_with(prefix) => return (t, l),
                Ok(_) => {}
                Err(_) => panic!("no {prefix:?} within {limit:?}"),
            }
        }
    };
    let mut send = |s: &str| {
        stdin.write_all(s.as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    send("uci\n");
    wait_for("uciok", Duration::from_secs(5));
    send("position fen xyz\nposition fen 8/8/8/8/8/8/8/8 w - - 0 1\nsetoption name Hash value banana\n");
    send("\u{7f}\u{1b}[A garbage ] [ \nisready\n");
    wait_for("readyok", Duration::from_secs(5));
    // An infinite search answers isready while running and stops on request.
    send("position startpos moves e2e4\ngo infinite\n");
    std::thread::sleep(Duration::from_millis(300));
    send("isready\n");
    wait_for("readyok", Duration::from_secs(2));
    let asked = Instant::now();
    send("stop\n");
    let (t, line) = wait_for("bestmove", Duration::from_secs(2));
    assert!(t.duration_since(asked) < Duration::from_millis(500), "stop took {:?}", t.duration_since(asked));
    assert!(line.len() > "bestmove ".len());
    // Ponder, then ponderhit with a short clock: a bestmove follows by itself.
    send("position startpos\ngo ponder wtime 500 btime 500\n");
    std::thread::sleep(Duration::from_millis(100));
    send("ponderhit\n");
    wait_for("bestmove", Duration::from_secs(3));
    // A timed game move never overruns the clock.
    let asked = Instant::now();
    send("go wtime 200 btime 200 winc 0 binc 0\n");
    let (t, _) = wait_for("bestmove", Duration::from_secs(2));
    assert!(t.duration_since(asked) < Duration::from_millis(200));
    send("quit\n");
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            break;
        }
        assert!(Instant::now() < deadline, "engine did not quit");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The loop python-chess and cutechess run: search, and the moment `bestmove` arrives,
/// change options and search again. Every option must take effect (seen in the next
/// search's info lines), none refused.
#[test]
fn options_sent_right_after_bestmove_take_effect() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bastion"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("engine binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut until_bestmove = || -> Vec<String> {
        let mut out = Vec::new();
        for line in lines.by_ref() {
            let line = line.expect("engine output");
            let done = line.starts_with("bestmove");
            out.push(line);
            if done {
                return out;
            }
        }
        panic!("engine closed its output after {out:#?}");
    };
    writeln!(stdin, "uci\nposition startpos moves d2d4\ngo nodes 2000").unwrap();
    until_bestmove();
    let mut lost = Vec::new();
    for round in 0..200 {
        let wdl = round % 2 == 0;
        let multipv = 1 + round % 3;
        writeln!(
            stdin,
            "setoption name UCI_ShowWDL value {wdl}\nsetoption name MultiPV value {multipv}\ngo nodes 2000"
        )
        .unwrap();
        stdin.flush().unwrap();
        let out = until_bestmove();
        let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth") && l.contains(" pv ")).collect();
        let seen_wdl = infos.iter().all(|l| l.contains(" wdl ")) && !infos.is_empty();
        let seen_multipv = infos
            .iter()
            .filter_map(|l| l.split_whitespace().skip_while(|&t| t != "multipv").nth(1)?.parse::<usize>().ok())
            .max();
        let refused = out.iter().any(|l| l.starts_with("info string"));
        if refused || seen_wdl != wdl || seen_multipv != Some(multipv) {
            lost.push(format!("round {round}: asked WDL {wdl}, MultiPV {multipv}: {out:?}"));
        }
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    assert!(lost.is_empty(), "{} of 200 rounds lost an option: {lost:#?}", lost.len());
}
