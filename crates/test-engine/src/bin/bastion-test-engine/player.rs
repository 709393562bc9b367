//! A legal-move player for the arena's tests: weak on purpose, and either
//! random, predictable or a little greedy.

use std::thread;
use std::time::Duration;

use bastion_core::{Color, Move, Position, Role};

use crate::config::Play;
use crate::{say, Fake};

/// Picks a move for the current position and answers with it.
pub(crate) fn go(fake: &mut Fake) {
    let pos = fake.current();
    let Some(m) = choose(fake, &pos) else {
        say("bestmove (none)");
        return;
    };
    let after = pos.play(m);
    let score = match fake.config.score {
        Some(s) => format!("cp {s}"),
        None if after.is_checkmate() => "mate 1".to_string(),
        None => format!("cp {}", material(&after, pos.side_to_move())),
    };
    let uci = pos.to_uci(m);
    if fake.config.think_ms > 0 {
        if let Some(&other) = pos.legal_moves().iter().find(|&&o| o != m) {
            say(&format!("info depth 1 score cp 0 nodes 1 pv {}", pos.to_uci(other)));
        }
        thread::sleep(Duration::from_millis(fake.config.think_ms));
    }
    say(&format!("info depth 2 score {score} nodes 2 time 0 pv {uci}"));
    say(&format!("bestmove {uci}"));
}

fn choose(fake: &mut Fake, pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    // `Greed` per cent of a random player's moves are greedy ones.
    let greed = fake.option("Greed").and_then(|v| v.trim().parse::<usize>().ok()).unwrap_or(0);
    // (The die is cast only with some greed, so seeded games without it stay as they were.)
    let greedy_now = match fake.config.play {
        Play::Greedy => true,
        Play::Random => greed > 0 && fake.rng.below(100) < greed,
        _ => false,
    };
    match fake.config.play {
        Play::First => Some(moves[0]),
        _ if greedy_now => {
            if let Some(&m) = moves.iter().find(|&&m| pos.play(m).is_checkmate()) {
                return Some(m);
            }
            let best = moves
                .iter()
                .filter_map(|&m| pos.role_at(m.to()).filter(|_| !m.is_castling()).map(|r| (r.value(), m)))
                .max_by_key(|&(v, _)| v);
            Some(best.map_or_else(|| moves[fake.rng.below(moves.len())], |(_, m)| m))
        }
        _ => Some(moves[fake.rng.below(moves.len())]),
    }
}

/// Material balance for `side`, in centipawns.
fn material(pos: &Position, side: Color) -> i32 {
    Role::ALL
        .into_iter()
        .filter(|&role| role != Role::King)
        .map(|role| (pos.count(side, role) as i32 - pos.count(!side, role) as i32) * role.value())
        .sum()
}
