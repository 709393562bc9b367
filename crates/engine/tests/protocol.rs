//! The UCI protocol server driven in process: parsing (including hostile input), options,
//! reports, the book, mate-prover and network hooks. The `bastion` binary is driven over
//! stdin/stdout by the CLI's tests.

use bastion_core::{Move, Position};
use bastion_engine::protocol::UciSession;
use bastion_engine::{MateBudget, MateProver};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A `Write` that appends to a shared buffer.
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

fn run_session(input: &str) -> Vec<String> {
    let buf = Shared::default();
    UciSession::new(buf.clone()).run(input.as_bytes());
    let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    text.lines().map(str::to_string).collect()
}

#[test]
fn handshake_and_options() {
    let out = run_session("uci\nisready\n");
    assert!(out[0].starts_with("id name Bastion"));
    for opt in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "Clear Hash",
        "UCI_Chess960",
        "UCI_ShowWDL",
        "SyzygyPath",
        "BastionTBPath",
        "Contempt",
        "AdaptiveDepthThreshold",
        "LazyEvalMargin",
    ] {
        assert!(out.iter().any(|l| l.starts_with(&format!("option name {opt} type"))), "missing {opt}");
    }
    // Every search switch is listed with its default.
    let mut defaults = bastion_engine::SearchParams::default();
    for (name, field) in bastion_engine::SearchParams::switches() {
        let line = format!("option name {name} type check default {}", field(&mut defaults));
        assert!(out.contains(&line), "missing {line:?}");
    }
    for (name, default) in [("AdaptiveDepthControl", false), ("EnhancedTTCutoff", false), ("LazyEval", false)] {
        assert!(out.contains(&format!("option name {name} type check default {default}")), "{name}");
    }
    assert!(out.contains(&"uciok".to_string()));
    assert_eq!(out.last().unwrap(), "readyok");
}

#[test]
fn hostile_input_is_reported_and_ignored() {
    let input = "\
garbage here
position fen xyz
position fen 8/8/8/8/8/8/8/8 w - - 0 1
position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5
position
position startpos moves
setoption name Hash value banana
setoption name Hash value -5
setoption name Threads
setoption name NoSuchOption value 1
setoption
setoption name MultiPV value 99999999999999999999
setoption name LazyEvalMargin value 5000
go depth banana wtime -5 movestogo x
go depth 2 searchmoves zz
go nodes
\u{0}\u{1}\u{ff}
position startpos moves e2e4 e7e5
go depth 3
isready
";
    let out = run_session(input);
    let infos = out.iter().filter(|l| l.starts_with("info string")).count();
    assert!(infos >= 13, "every bad command is reported: {out:#?}");
    assert!(out.iter().any(|l| l.contains("LazyEvalMargin") && l.contains("outside")), "{out:#?}");
    // Every `go` produced exactly one bestmove, all legal.
    let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 4, "{out:#?}");
    assert!(out.iter().any(|l| l == "readyok"));
    // The last search is from the position after 1.e4 e5: its best move is White's.
    let last = best.last().unwrap();
    let mv = last.split_whitespace().nth(1).unwrap();
    let pos = bastion_core::Position::startpos();
    let pos = pos.play(pos.parse_uci("e2e4").unwrap());
    let pos = pos.play(pos.parse_uci("e7e5").unwrap());
    assert!(pos.parse_uci(mv).is_ok(), "{last}");
}

#[test]
fn an_illegal_move_in_searchmoves_is_left_out_and_the_others_still_restrict_the_search() {
    // The list ends at the next `go` keyword; the bad move is reported, not the end of the list.
    let out = run_session("position startpos\ngo searchmoves a2a5 h2h3 depth 4\nisready\n");
    assert!(out.iter().any(|l| l.starts_with("info string searchmoves") && l.contains("a2a5")), "{out:#?}");
    let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{out:#?}");
    assert_eq!(best[0].split_whitespace().nth(1), Some("h2h3"), "{out:#?}");
    assert!(out.iter().any(|l| l.starts_with("info depth 4 ")), "depth after the list is read: {out:#?}");
    // No legal move at all: said so, and every move is searched.
    let out = run_session("position startpos\ngo depth 1 searchmoves e2e5\nisready\n");
    assert!(out.iter().any(|l| l.contains("no legal move given")), "{out:#?}");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{out:#?}");
}

#[test]
fn go_perft_prints_the_divide_as_stockfish_does() {
    // Kiwipete at depth 2: 48 root moves, 2,039 leaves (the standard perft suite).
    let out = run_session(
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\ngo perft 2\nisready\n",
    );
    let moves: Vec<&String> = out.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
    assert_eq!(moves.len(), 48, "{out:#?}");
    let sum: u64 = moves.iter().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 2039);
    assert!(out.contains(&"e1g1: 43".to_string()), "castling in UCI notation: {out:#?}");
    assert!(out.contains(&"Nodes searched: 2039".to_string()), "{out:#?}");
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "perft is not a search: {out:#?}");
    assert_eq!(out.last().map(String::as_str), Some("readyok"));
    // A missing, unparsable or too deep depth is refused, and no search starts.
    let out = run_session("go perft\ngo perft x\ngo perft 0\ngo perft 99\nisready\n");
    assert_eq!(out.iter().filter(|l| l.starts_with("info string go perft needs")).count(), 4, "{out:#?}");
    assert!(!out.iter().any(|l| l.starts_with("bestmove") || l.starts_with("Nodes")), "{out:#?}");
}

#[test]
fn info_lines_have_all_fields_and_multipv_lines() {
    let out = run_session(
        "setoption name MultiPV value 3\nsetoption name UCI_ShowWDL value true\nposition startpos\ngo depth 5\n",
    );
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 15, "3 lines x 5 depths: {out:#?}");
    for l in &infos {
        for f in [
            " seldepth ",
            " multipv ",
            " score cp ",
            " wdl ",
            " nodes ",
            " nps ",
            " hashfull ",
            " tbhits ",
            " time ",
            " pv ",
        ] {
            assert!(l.contains(f), "{l} lacks {f}");
        }
    }
    assert!(infos[12].contains("multipv 1") && infos[14].contains("multipv 3"));
}

#[test]
fn mate_is_reported_as_score_mate() {
    let out = run_session("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo mate 1\n");
    assert!(out.iter().any(|l| l.contains("score mate 1 ")), "{out:#?}");
    assert!(out.iter().any(|l| l == "bestmove d1d8"), "{out:#?}");
    let out = run_session("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\n");
    assert_eq!(out.last().unwrap(), "bestmove 0000");
}

#[test]
fn chess960_castling_notation() {
    let fen = "position fen rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1";
    let out = run_session(&format!("setoption name UCI_Chess960 value true\n{fen}\ngo depth 1 searchmoves b1a1\n"));
    assert_eq!(out.last().unwrap().split_whitespace().nth(1), Some("b1a1"), "{out:#?}");
}

/// A book that knows one move, 1.e4, in the start position only.
struct OneLineBook;

impl bastion_engine::BookProber for OneLineBook {
    fn pick(&self, pos: &bastion_core::Position, _random: u64) -> Option<bastion_core::Move> {
        (pos.fen() == bastion_core::Position::startpos().fen()).then(|| pos.parse_uci("e2e4").unwrap())
    }
}

#[test]
fn own_book_answers_in_book_and_searches_out_of_book() {
    let run = |input: &str| {
        let buf = Shared::default();
        UciSession::new(buf.clone())
            .with_book_loader(Box::new(|_path| Ok(Arc::new(OneLineBook) as Arc<dyn bastion_engine::BookProber>)))
            .run(input.as_bytes());
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect::<Vec<_>>()
    };
    let book = "setoption name BookFile value any.bin\nsetoption name OwnBook value true\n";
    let out = run(&format!("{book}position startpos\ngo depth 3\nquit\n"));
    assert!(out.iter().any(|l| l == "info string book move"), "{out:?}");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).collect::<Vec<_>>(), ["bestmove e2e4"]);
    assert!(!out.iter().any(|l| l.starts_with("info depth")));
    // Out of book the engine searches.
    let out = run(&format!("{book}position startpos moves d2d4\ngo depth 3\nquit\n"));
    assert!(out.iter().any(|l| l.starts_with("info depth 3")), "{out:?}");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    // With OwnBook off the book is not used.
    let out = run("setoption name BookFile value any.bin\nposition startpos\ngo depth 2\nquit\n");
    assert!(!out.iter().any(|l| l == "info string book move"));
}

// The mate-sequence optimizer hook: when the search announces a mate, the
// installed prover's line is reported and played; otherwise it is not asked.

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

// White mates in 2 (mates2000, line 7). Its key is a quiet move that the network-guided
// search first keeps at depth 12 (the hand-written evaluation by depth 8), so the tests search to 14.
const MATE_IN_2: &str = "3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1";

fn run_with_prover(prover: Arc<FakeProver>, input: &str) -> Vec<String> {
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
    let lines = run_with_prover(prover.clone(), &format!("uci\nposition fen {MATE_IN_2}\ngo depth 14\n"));
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
    let lines = run_with_prover(
        prover.clone(),
        &format!("setoption name MateSolver value false\nposition fen {MATE_IN_2}\ngo depth 14\n"),
    );
    assert_eq!(prover.calls.load(Ordering::SeqCst), 0);
    assert_ne!(lines.last().unwrap(), "bestmove a2a3 ponder b1a2");
}

#[test]
fn no_mate_score_no_prover_and_bad_lines_are_ignored() {
    let prover = fake(PROVER_LINE);
    run_with_prover(prover.clone(), "position startpos\ngo depth 6\n");
    assert_eq!(prover.calls.load(Ordering::SeqCst), 0);
    // A line longer than the announced mate is not taken.
    let long = fake(&["a2a3", "b1a2", "d8h8", "c4c3", "h8g8"]);
    let lines = run_with_prover(long.clone(), &format!("position fen {MATE_IN_2}\ngo depth 14\n"));
    assert_eq!(long.calls.load(Ordering::SeqCst), 1);
    assert!(!lines.iter().any(|l| l.contains("mate solver")), "{lines:#?}");
}

/// `EvalFile` loads a network (the search and `eval` then use it), rejects a file that is
/// not one with a message, `<empty>` selects the hand-written evaluation and `<internal>`
/// (the default) the built-in network.
#[test]
fn eval_file_loads_a_network_and_rejects_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let net_path = dir.path().join("random.nnue");
    // The built-in network with 50 cp more output bias in the bucket of a full board (the
    // last four bytes), so that it evaluates the test position differently.
    let mut bytes = bastion_engine::nnue::Network::builtin().to_bytes();
    let n = bytes.len();
    let bias = i32::from_le_bytes(bytes[n - 4..].try_into().unwrap()) + 50 * 255 * 64 / 400;
    bytes[n - 4..].copy_from_slice(&bias.to_le_bytes());
    let net = bastion_engine::nnue::Network::from_bytes(&bytes).unwrap();
    std::fs::write(&net_path, &bytes).unwrap();
    let bad_path = dir.path().join("bad.nnue");
    std::fs::write(&bad_path, b"BSTNNUE1 but truncated").unwrap();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let want = net.evaluate(&Position::from_fen(fen).unwrap());
    let out = run_session(&format!(
        "position fen {fen}\neval\nsetoption name EvalFile value {}\neval\nsetoption name EvalFile value {}\n\
         eval\nsetoption name EvalFile value <empty>\neval\nsetoption name EvalFile value <internal>\neval\n\
         setoption name EvalFile value {0}\ngo depth 5\nquit\n",
        net_path.display(),
        bad_path.display()
    ));
    let evals: Vec<&String> = out.iter().filter(|l| l.contains("static eval")).collect();
    assert_eq!(evals.len(), 5, "{out:?}");
    assert_ne!(want, 0);
    let builtin = bastion_engine::nnue::Network::builtin().evaluate(&Position::from_fen(fen).unwrap());
    // The default is the built-in network; `<internal>` goes back to it.
    for e in [evals[0], evals[4]] {
        assert!(e.contains(&format!("static eval {builtin} cp")) && e.contains("network"), "{e} vs {builtin}");
    }
    for e in &evals[1..3] {
        // A bad file is refused and the network in use stays.
        assert!(e.contains(&format!("static eval {want} cp")) && e.contains("network"), "{e} vs {want}");
    }
    assert!(evals[3].contains("hand-written"), "{}", evals[3]);
    assert!(out.iter().any(|l| l.starts_with("bestmove ") && l != "bestmove 0000"), "{out:?}");
    assert!(out.iter().any(|l| l.contains("EvalFile") && l.contains("not a Bastion network")), "{out:?}");
}

/// Nodes of the last `info … nodes N` line of a session's output.
#[cfg(feature = "tune")]
fn last_nodes(out: &[String]) -> u64 {
    let info = out.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "nodes").expect("nodes field");
    words[i + 1].parse().unwrap()
}

/// The margins are hidden options only in builds with the `tune` feature.
#[cfg(feature = "tune")]
#[test]
fn margin_options_change_the_tree_and_reject_bad_values() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
    let go = format!("position fen {fen}\ngo depth 9\nisready\n");
    let default = last_nodes(&run_session(&go));
    // Setting every margin to its default value is the same search.
    let same: String = bastion_engine::Margins::specs()
        .iter()
        .map(|s| format!("setoption name {} value {}\n", s.name, (s.field)(&mut bastion_engine::Margins::default())))
        .collect();
    assert_eq!(last_nodes(&run_session(&format!("{same}{go}"))), default);
    // Wider futility and reverse-futility margins prune other moves: a different tree. (Not
    // necessarily a larger one: what is searched instead feeds the histories and the table.)
    let wide = last_nodes(&run_session(&format!(
        "setoption name FutilityBase value 600\nsetoption name RfpMul value 400\n{go}"
    )));
    assert_ne!(wide, default, "wide margins {wide} vs default {default}");
    // A wide first aspiration window fails less often: another tree.
    let asp = last_nodes(&run_session(&format!("setoption name AspDelta value 500\n{go}")));
    assert_ne!(asp, default, "AspDelta 500 {asp} vs default {default}");
    let out = run_session("setoption name RfpMul value 5\nsetoption name SeeQuiet value x\nisready\n");
    assert!(out.iter().any(|l| l.contains("RfpMul") && l.contains("outside")), "{out:#?}");
    assert!(out.iter().any(|l| l.contains("SeeQuiet") && l.contains("not a number")), "{out:#?}");
}

/// Without the `tune` feature the margins are constants: their names are unknown options.
#[cfg(not(feature = "tune"))]
#[test]
fn margins_are_not_options_without_the_tune_feature() {
    for name in ["RfpMul", "TmHorizon"] {
        let out = run_session(&format!("setoption name {name} value 100\nisready\n"));
        assert!(out.iter().any(|l| l.contains(name) && l.contains("unknown option")), "{out:#?}");
    }
}

/// Removed options are reported like any unknown one.
#[test]
fn removed_options_are_unknown() {
    for name in ["TimeHorizon", "EndgameEvalPct", "HandEvalPct", "NetTempo", "ContHist4", "NonPawnCorr"] {
        let out = run_session(&format!("setoption name {name} value 1\nisready\n"));
        assert!(out.iter().any(|l| l.contains(name) && l.contains("unknown option")), "{out:#?}");
    }
}

/// The SPSA parameter files in `docs/engine.md` name every margin and time constant with
/// its built-in value and the range the option accepts, so a run started from them starts
/// from the engine as built.
#[cfg(feature = "tune")]
#[test]
fn the_documented_spsa_files_match_the_tunable_options() {
    use bastion_engine::{Margins, TimeConstants};
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/engine.md")).unwrap();
    let mut lines = Vec::new();
    for s in Margins::specs() {
        lines.push(format!("{}, int, {}, {}, {}, ", s.name, (s.field)(&mut Margins::default()), s.min, s.max));
    }
    for s in TimeConstants::specs() {
        lines.push(format!("{}, int, {}, {}, {}, ", s.name, (s.field)(&mut TimeConstants::default()), s.min, s.max));
    }
    for line in &lines {
        assert!(doc.lines().any(|l| l.starts_with(line.as_str())), "docs/engine.md lacks `{line}…`");
    }
    let documented = doc.lines().filter(|l| l.contains(", int, ") && !l.starts_with('`')).count();
    assert_eq!(documented, lines.len(), "one line per tunable constant");
}

/// The time-management constants are hidden options of the `tune` build: accepted at their
/// defaults and at the ends of their ranges (where a timed search still answers), refused
/// outside them.
#[cfg(feature = "tune")]
#[test]
fn time_constant_options_are_accepted_within_their_ranges() {
    use bastion_engine::TimeConstants;
    for bound in [0, 1, 2] {
        let set: String = TimeConstants::specs()
            .iter()
            .map(|s| {
                let v = [(s.field)(&mut TimeConstants::default()).to_owned(), s.min, s.max][bound];
                format!("setoption name {} value {v}\n", s.name)
            })
            .collect();
        let out = run_session(&format!("{set}position startpos\ngo wtime 400 btime 400 winc 10 binc 10\nisready\n"));
        assert!(!out.iter().any(|l| l.starts_with("info string")), "{out:#?}");
        assert!(out.iter().any(|l| l.starts_with("bestmove ") && l != "bestmove 0000"), "{out:#?}");
    }
    let out = run_session("setoption name TmHorizon value 1\nsetoption name TmSoftCap value x\nisready\n");
    assert!(out.iter().any(|l| l.contains("TmHorizon") && l.contains("outside")), "{out:#?}");
    assert!(out.iter().any(|l| l.contains("TmSoftCap") && l.contains("not a number")), "{out:#?}");
}
