//! Checks the engine's static judgement of small endings against Bastion's own DTM
//! tables (made beforehand with `bastion tb gen ENDING --dir DIR`).
//!
//! For random positions of each ending (a fixed seed; both sides to move; positions
//! with the side to move in check, without a move or able to capture are skipped, so
//! the judgement is of quiet positions), it prints the table's verdict, how often an
//! endgame rule takes the position from the network ([`eval::prefers_hand_written`];
//! in pawnless endings of five men or fewer, every position) and what the table says
//! there, and how the network alone and the engine's whole evaluation
//! ([`eval::evaluate_by`]) judge the position: a draw rated at 2 pawns or more, or a win
//! rated under 1 pawn for the winner, counts as wrong.
//!
//! ```text
//! cargo run --release -p bastion-engine --example endgame_check -- DIR 2000000 KBPKB KRPKR KNPKN
//! cargo run --release -p bastion-engine --example endgame_check -- DIR 2000000 KBPKB --show 10
//! ```
//! Arguments: the tables' directory, the random indices drawn per ending (illegal and
//! skipped ones included), the endings; `--show N` also prints up to N positions where a
//! rule fires on a table win or loss, and up to N draws the evaluation rates at 2 pawns
//! or more. The same arguments give the same positions.

use bastion_core::{Color, Position};
use bastion_engine::eval::{self, PawnCache};
use bastion_engine::nnue::Network;
use bastion_tablebase::index::Indexer;
use bastion_tablebase::{Material, Tablebases, Wdl};

/// Counts for one ending; `[win, draw, loss]` from the first-named side's view.
#[derive(Default)]
struct Tally {
    /// Quiet positions judged.
    positions: u64,
    /// The table's verdicts.
    table: [u64; 3],
    /// The table's verdicts where a rule fires.
    fired: [u64; 3],
    /// Misjudged by the network alone, by verdict.
    net_wrong: [u64; 3],
    /// Misjudged by the whole evaluation, by verdict.
    engine_wrong: [u64; 3],
    /// Sum of the network's scores on the draws where a rule fires.
    fired_net_sum: i64,
    /// Draws where a rule fires that the network rates at a pawn or more.
    fired_net_pawn: u64,
}

/// 0 win, 1 draw, 2 loss for the first-named side; `None` for a cursed or blessed value.
fn outcome(wdl: Wdl, stm_is_strong: bool) -> Option<usize> {
    let stm = match wdl {
        Wdl::Win => 0,
        Wdl::Draw => 1,
        Wdl::Loss => 2,
        _ => return None,
    };
    Some(if stm_is_strong { stm } else { 2 - stm })
}

/// Whether a score (first-named side's view, centipawns) misjudges the outcome.
fn wrong(score: i32, outcome: usize) -> bool {
    match outcome {
        0 => score < 100,
        1 => score.abs() >= 200,
        _ => score > -100,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut show = 0usize;
    if let Some(i) = args.iter().position(|a| a == "--show") {
        show = args.get(i + 1).ok_or("--show needs a number")?.parse()?;
        args.drain(i..i + 2);
    }
    if args.len() < 3 {
        return Err("usage: endgame_check DIR INDICES ENDING... [--show N]".into());
    }
    let tables = Tablebases::open(&[&args[0]])?;
    let indices: u64 = args[1].parse()?;
    let net = Network::builtin();
    let mut cache = PawnCache::new();
    println!("ending   quiet   table W/D/L (first side)   rule fires: on W/D/L   wrong, network: W/D/L   wrong, engine: W/D/L");
    for name in &args[2..] {
        let (m, _) = Material::parse(name)?.normalized();
        if !tables.endings().iter().any(|(e, _)| *e == m) {
            return Err(format!("no {name} table in {}", args[0]).into());
        }
        let ix = Indexer::new(&m);
        let strong = Color::White;
        let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut t = Tally::default();
        let mut shown = 0;
        let mut misjudged = 0;
        for _ in 0..indices {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let side = if rng >> 63 == 0 { Color::White } else { Color::Black };
            let Some(pos) = ix.position(rng % ix.size(), side) else { continue };
            if !quiet(&pos) {
                continue;
            }
            let Some(o) = tables.probe_wdl(&pos).and_then(|w| outcome(w, side == strong)) else { continue };
            let view = |v: i32| if side == strong { v } else { -v };
            let net_score = view(net.evaluate(&pos));
            let engine_score = view(eval::evaluate_by(&pos, Some(&net), &mut cache, |n| n.evaluate(&pos)));
            t.positions += 1;
            t.table[o] += 1;
            if eval::prefers_hand_written(&pos) {
                t.fired[o] += 1;
                if o == 1 {
                    t.fired_net_sum += i64::from(net_score);
                    t.fired_net_pawn += u64::from(net_score.abs() >= 100);
                }
                if o != 1 && shown < show {
                    shown += 1;
                    println!("  fires on a {}: {}  engine {engine_score}", ["win", "", "loss"][o], pos.fen());
                }
            }
            if o == 1 && wrong(engine_score, o) && misjudged < show {
                misjudged += 1;
                println!("  draw rated {engine_score}: {}", pos.fen());
            }
            t.net_wrong[o] += u64::from(wrong(net_score, o));
            t.engine_wrong[o] += u64::from(wrong(engine_score, o));
        }
        let f = |a: [u64; 3]| format!("{}/{}/{}", a[0], a[1], a[2]);
        println!(
            "{name:8} {}   {}   {}   {}   {}",
            t.positions,
            f(t.table),
            f(t.fired),
            f(t.net_wrong),
            f(t.engine_wrong)
        );
        if t.fired[1] > 0 {
            println!(
                "         on the draws where a rule fires, the network's mean score {:+.0}, {} of {} rated at a pawn or more",
                t.fired_net_sum as f64 / t.fired[1] as f64,
                t.fired_net_pawn,
                t.fired[1]
            );
        }
    }
    Ok(())
}

/// Not in check, with a move, and no capture for the side to move.
fn quiet(pos: &Position) -> bool {
    let moves = pos.legal_moves();
    !pos.in_check() && !moves.is_empty() && moves.iter().all(|mv| pos.piece_at(mv.to()).is_none())
}
