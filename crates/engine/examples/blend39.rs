//! Session 39 diagnostic: for each `fen,result,game,score` self-play line on stdin, print
//! `nn,hce,result,score,pieces,game` (White's view, centipawns), skipping positions the
//! hand-written evaluation already owns and positions in check. With `--groups`, each line
//! also gets what every group of hand-written terms contributes (the full score minus the
//! score with that group's weights set to zero): material and piece-square tables,
//! mobility, passed pawns, pawn structure, king safety, piece placement, threats, tempo.
//!
//! ```text
//! cargo run --release -p bastion-engine --example blend39 -- [--groups] < sp39.csv > b39.csv
//! ```
use bastion_core::{Color, Position};
use bastion_engine::eval::layout::*;
use bastion_engine::eval::{
    evaluate, evaluate_by, evaluate_with, params, prefers_hand_written, NetAdjust, NoTrace, PawnCache,
};
use bastion_engine::nnue::Network;
use std::io::{BufRead, Write};
use std::ops::Range;

/// The groups of hand-written terms, as ranges of weight indices.
// Some groups are one range and others several; one shape keeps the table uniform.
#[allow(clippy::single_range_in_vec_init)]
fn groups() -> Vec<(&'static str, Vec<Range<usize>>)> {
    let one = |i: usize| i..i + 1;
    vec![
        ("material", vec![MATERIAL..MOB_N]),
        ("mobility", vec![MOB_N..PASSED]),
        ("passed", vec![PASSED..ISOLATED, PASSED_SAFE_PATH..KING_WEAK_ZONE, KING_PAWN_DIST..PASSED_SAFE_PATH]),
        ("pawns", vec![ISOLATED..SHELTER, one(WEAK_PAWN)]),
        ("king", vec![SHELTER..BISHOP_PAIR, one(KING_WEAK_ZONE), SAFETY_ZONE..NUM_PARAMS]),
        (
            "pieces",
            vec![
                BISHOP_PAIR..HANGING,
                one(OUTPOST),
                one(ROOK_SEVENTH),
                one(BAD_BISHOP),
                one(MINOR_BEHIND_PAWN),
                one(SPACE),
            ],
        ),
        (
            "threats",
            vec![HANGING..OUTPOST, one(THREAT_MINOR_ON_MINOR), one(THREAT_ROOK_ON_QUEEN), one(PAWN_PUSH_THREAT)],
        ),
        ("tempo", vec![one(TEMPO)]),
    ]
}

fn main() {
    let with_groups = std::env::args().any(|a| a == "--groups");
    let ablated: Vec<[S; NUM_PARAMS]> = groups()
        .iter()
        .map(|(_, ranges)| {
            let mut w = params::WEIGHTS;
            for r in ranges {
                for x in &mut w[r.clone()] {
                    *x = S(0, 0);
                }
            }
            w
        })
        .collect();
    if with_groups {
        let names: Vec<&str> = groups().iter().map(|g| g.0).collect();
        eprintln!("group columns after the sixth: {}", names.join(","));
    }
    let net = Network::builtin();
    let mut cache = PawnCache::new();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < 4 {
            continue;
        }
        let Ok(pos) = Position::from_fen(f[0]) else { continue };
        if pos.in_check() || prefers_hand_written(&pos) {
            continue;
        }
        let sign = if pos.side_to_move() == Color::White { 1 } else { -1 };
        let nn = sign * evaluate_by(&pos, Some(&net), &mut cache, NetAdjust::default(), |n| n.evaluate(&pos));
        let hce = sign * evaluate(&pos, &mut cache);
        write!(out, "{},{},{},{},{},{}", nn, hce, f[1], f[3], pos.occupied().count(), f[2]).unwrap();
        if with_groups {
            // No pawn cache: it would hand back pawn terms scored with the full weights.
            let full = evaluate_with(&pos, &params::WEIGHTS, None, &mut NoTrace, None);
            for w in &ablated {
                let part = full - evaluate_with(&pos, w, None, &mut NoTrace, None);
                write!(out, ",{}", sign * part).unwrap();
            }
        }
        writeln!(out).unwrap();
    }
}
