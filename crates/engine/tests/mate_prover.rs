//! The mate-sequence optimizer hook: when the search announces a mate, the
//! installed prover's line is reported and played; otherwise it is not asked.

use bastion_core::{Move, Position};
use bastion_engine::uci::UciSession;
use bastion_engine::{MateBudget, MateProver};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Answers with the line stored for a position (UCI moves), counting calls.
struct FakeProver {
    fen: &'static str,
    line: &'static [&'static str],
    calls: AtomicUsize,
    max_moves_seen: AtomicUsize,
}

impl MateProver for FakeProver {
    fn shortest_mate(&self, pos: &Position, max_moves: u32, budget: &MateBudget) -> Option<Vec<Move>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.max_moves_seen.store(max_moves as usize, Ordering::SeqCst);
        assert!(budget.nodes >= 100_000, "budget {budget:?}");
        if pos.epd() != Position::from_fen(self.fen).unwrap().epd() {
            return None;
        }
        let mut p = pos.clone();
        let mut out = Vec::new();
        for uci in self.line {
            let m = p.parse_uci(uci).unwrap();
            p = p.play(m);
            out.push(m);
        }
        Some(out)
    }
}

// White mates in 2 (mates2000, line 7).
const MATE_IN_2: &str = "3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1";

fn run(prover: Arc<FakeProver>, input: &str) -> Vec<String> {
    let buf = Shared::default();
    UciSession::new(buf.clone()).with_mate_prover(prover).run(input.as_bytes());
    let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    text.lines().map(str::to_string).collect()
}

fn fake(line: &'static [&'static str]) -> Arc<FakeProver> {
    Arc::new(FakeProver { fen: MATE_IN_2, line, calls: AtomicUsize::new(0), max_moves_seen: AtomicUsize::new(0) })
}

/// A legal 3-ply line whose first move is not a mating key: the session must
/// still report and play what the prover returns (it trusts the proof).
const PROVER_LINE: &[&str] = &["a2a3", "b1a2", "d8h8"];

#[test]
fn a_mate_score_hands_the_position_to_the_prover_and_plays_its_line() {
    let prover = fake(PROVER_LINE);
    let lines = run(prover.clone(), &format!("uci\nposition fen {MATE_IN_2}\ngo depth 8\n"));
    assert!(lines.iter().any(|l| l == "option name MateSolver type check default true"));
    assert_eq!(prover.calls.load(Ordering::SeqCst), 1, "{lines:#?}");
    assert_eq!(prover.max_moves_seen.load(Ordering::SeqCst), 2, "the search's own mate length is the bound");
    assert!(lines.iter().any(|l| l == "info string mate solver: shortest mate in 2 proved"), "{lines:#?}");
    let last_info = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    assert!(last_info.contains("score mate 2") && last_info.ends_with("pv a2a3 b1a2 d8h8"), "{last_info}");
    assert_eq!(lines.last().unwrap(), "bestmove a2a3 ponder b1a2");
}

#[test]
fn the_option_turns_the_prover_off() {
    let prover = fake(PROVER_LINE);
    let lines =
        run(prover.clone(), &format!("setoption name MateSolver value false\nposition fen {MATE_IN_2}\ngo depth 8\n"));
    assert_eq!(prover.calls.load(Ordering::SeqCst), 0);
    assert_ne!(lines.last().unwrap(), "bestmove a2a3 ponder b1a2");
}

#[test]
fn no_mate_score_no_prover_and_bad_lines_are_ignored() {
    let prover = fake(PROVER_LINE);
    run(prover.clone(), "position startpos\ngo depth 6\n");
    assert_eq!(prover.calls.load(Ordering::SeqCst), 0);
    // A line longer than the announced mate is not taken.
    let long = fake(&["a2a3", "b1a2", "d8h8", "c4c3", "h8g8"]);
    let lines = run(long.clone(), &format!("position fen {MATE_IN_2}\ngo depth 8\n"));
    assert_eq!(long.calls.load(Ordering::SeqCst), 1);
    assert!(!lines.iter().any(|l| l.contains("mate solver")), "{lines:#?}");
}
