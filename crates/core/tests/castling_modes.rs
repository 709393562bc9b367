//! Castling rights in standard chess and Chess960: a standard FEN keeps only the rights
//! standard chess can have (as python-chess's `Board(fen)` does), and Chess960 reads
//! X-FEN and Shredder-FEN as they are written.

use bastion_core::castling::CastlingMode;
use bastion_core::perft::perft;
use bastion_core::rng::Rng;
use bastion_core::Position;
use std::io::Write;
use std::process::{Command, Stdio};

/// King on f1/f8 with rooks on a and g: X-FEN would give all four rights.
const KING_ON_F: &str = "r4kr1/8/8/8/8/8/8/R4KR1 w KQkq - 0 1";

#[test]
fn standard_fen_drops_rights_of_a_king_off_the_e_file() {
    let pos = Position::from_fen(KING_ON_F).unwrap();
    assert_eq!(pos.fen(), "r4kr1/8/8/8/8/8/8/R4KR1 w - - 0 1");
    assert!(!pos.is_chess960());
    assert!(pos.legal_moves().iter().all(|m| !m.is_castling()));
    // python-chess 1.11: chess.Board(KING_ON_F) has 399 positions at depth 2.
    assert_eq!(perft(&pos, 2), 399);
    let reply = pos.play(pos.parse_uci("a1a2").unwrap());
    assert!(reply.parse_uci("f8g8").is_err() && reply.parse_uci("f8a8").is_err());
}

#[test]
fn chess960_fen_keeps_x_fen_rights() {
    let pos = Position::from_fen_with(KING_ON_F, CastlingMode::Chess960).unwrap();
    assert_eq!(pos.fen(), KING_ON_F);
    assert!(pos.is_chess960());
    // python-chess 1.11: chess.Board(KING_ON_F, chess960=True) gives 439.
    assert_eq!(perft(&pos, 2), 439);
    assert!(pos.parse_uci("f1a1").unwrap().is_castling());
}

/// A random position with kings and rooks near the back ranks and a castling field
/// drawn from every letter a FEN may hold there.
fn odd_castling_fen(rng: &mut Rng) -> String {
    let mut board = [[' '; 8]; 8];
    let mut place = |rng: &mut Rng, piece: char, ranks: &[usize]| loop {
        let rank = ranks[rng.below(ranks.len())];
        let file = rng.below(8);
        if board[rank][file] == ' ' {
            board[rank][file] = piece;
            break;
        }
    };
    place(rng, 'K', &[0, 0, 0, 1]);
    place(rng, 'k', &[7, 7, 7, 6]);
    for _ in 0..rng.below(3) + 1 {
        place(rng, 'R', &[0, 0, 0, 3]);
        place(rng, 'r', &[7, 7, 7, 4]);
    }
    for piece in ['N', 'b', 'P', 'p'] {
        if rng.below(2) == 0 {
            place(rng, piece, &[2, 3, 4, 5]);
        }
    }
    let rows: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for &c in &board[rank] {
                if c == ' ' {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    // Up to two letters a side, White's first: the form python-chess accepts.
    let mut castling = String::new();
    for letters in ["KQABCDEFGH", "kqabcdefgh"] {
        let mut letters: Vec<char> = letters.chars().collect();
        rng.shuffle(&mut letters);
        castling.extend(&letters[..rng.below(3)]);
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let side = if rng.below(2) == 0 { 'w' } else { 'b' };
    format!("{} {side} {castling} - 0 1", rows.join("/"))
}

const REFERENCE: &str = r#"
import sys, chess
def perft(b, d):
    if d == 0:
        return 1
    n = 0
    for m in b.legal_moves:
        b.push(m); n += perft(b, d - 1); b.pop()
    return n
for line in sys.stdin:
    b = chess.Board(line.strip())
    print(b.fen() + "\t" + str(perft(b, 2)))
"#;

#[test]
#[ignore = "needs python3 with python-chess (pip install chess); .ci/run installs it and runs this"]
fn odd_castling_rights_agree_with_python_chess() {
    let has_chess = Command::new("python3").args(["-c", "import chess"]).status().is_ok_and(|s| s.success());
    if !has_chess {
        eprintln!("python-chess is not installed; skipping");
        return;
    }
    let mut rng = Rng::new(0x00CA_571E);
    let mut ours = Vec::new();
    let mut rejected = 0;
    while ours.len() < 400 {
        let fen = odd_castling_fen(&mut rng);
        match Position::from_fen(&fen) {
            Ok(pos) => ours.push((fen, pos)),
            Err(_) => rejected += 1,
        }
    }
    let mut child = Command::new("python3")
        .args(["-c", REFERENCE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let input: String = ours.iter().map(|(fen, _)| format!("{fen}\n")).collect();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python-chess failed: {}", String::from_utf8_lossy(&out.stderr));
    let theirs = String::from_utf8(out.stdout).unwrap();
    let mut with_rights_dropped = 0;
    for ((fen, pos), line) in ours.iter().zip(theirs.lines()) {
        let (their_fen, their_perft) = line.split_once('\t').unwrap();
        assert_eq!(pos.fen(), their_fen, "{fen}");
        assert_eq!(perft(pos, 2).to_string(), their_perft, "{fen}");
        with_rights_dropped += usize::from(fen.split(' ').nth(2) != pos.fen().split(' ').nth(2));
    }
    assert_eq!(theirs.lines().count(), ours.len());
    assert!(with_rights_dropped > 100, "only {with_rights_dropped} positions lost rights");
    println!("{} positions agree with python-chess ({with_rights_dropped} with rights dropped, {rejected} FENs our parser rejected first)", ours.len());
}
