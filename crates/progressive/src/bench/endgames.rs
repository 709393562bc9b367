//! Basic endgames played out between two copies of the player: the stronger
//! side (king and pieces) against a bare king, from listed or random
//! positions (the endgames of Janko 2015, §6.2.1).

use crate::error::ProgressiveError;
use crate::player::PlayerOptions;
use crate::positions::random_endgame;
use crate::rules::Rules;
use crate::selfplay::play_from;
use crate::series::SeriesPosition;
use bastion_core::rng::Rng;
use bastion_core::Color;
use serde::Serialize;
use std::time::{Duration, Instant};

/// Turns a game may last beyond its start before it is adjudicated a draw.
const MAX_GAME_TURNS: u32 = 60;

/// One start position of the benchmark, the stronger side to move.
#[derive(Clone, Debug)]
pub struct EndgameCase {
    /// The group it is counted in (material and attacking colour, e.g. `KQK W`).
    pub group: String,
    /// Its name.
    pub name: String,
    /// The position.
    pub position: SeriesPosition,
}

impl EndgameCase {
    /// Reads `name ; progressive FEN` lines (`#` starts a comment); the first
    /// two words of the name are the group. Errors name the 1-based line.
    pub fn parse_list(text: &str) -> Result<Vec<EndgameCase>, ProgressiveError> {
        let mut cases = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |reason: String| ProgressiveError::AtLine { line: i + 1, reason };
            let (name, fen) = line.split_once(';').ok_or_else(|| at("expected `name ; FEN`".into()))?;
            let position = SeriesPosition::from_fen(fen.trim(), None, Rules::Italian).map_err(|e| at(e.to_string()))?;
            let group: Vec<&str> = name.split_whitespace().take(2).collect();
            cases.push(EndgameCase { group: group.join(" "), name: name.trim().to_string(), position });
        }
        Ok(cases)
    }

    /// `count` random placements per material set and attacking colour
    /// (White first), drawn from `seed`. `sets` holds piece letters (Q R B
    /// N) per set, e.g. `["Q", "RB"]`; `turn` is the attacker's series length.
    pub fn random(sets: &[&str], count: usize, turn: u32, seed: u64) -> Result<Vec<EndgameCase>, ProgressiveError> {
        let mut rng = Rng::new(seed);
        let mut cases = Vec::new();
        for set in sets {
            let set = set.to_uppercase();
            for attacker in [Color::White, Color::Black] {
                let c = if attacker == Color::White { "W" } else { "B" };
                for i in 0..count {
                    let position = random_endgame(&mut rng, &set, attacker, turn)?;
                    cases.push(EndgameCase {
                        group: format!("K{set} {c}"),
                        name: format!("K{set}K {c} {}", i + 1),
                        position,
                    });
                }
            }
        }
        Ok(cases)
    }
}

/// How one endgame went.
#[derive(Clone, Debug, Serialize)]
pub struct EndgameGame {
    /// The case's group.
    pub group: String,
    /// The case's name.
    pub name: String,
    /// The start position.
    pub fen: String,
    /// Whether the stronger side won.
    pub won: bool,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// How the game ended (`Checkmate`, `Repetition`, …).
    pub end: Option<String>,
    /// The last turn played.
    pub last_turn: u32,
    /// Turns played.
    pub turns: u32,
    /// Wall time of the game.
    pub seconds: f64,
    /// The game's notation.
    pub moves: String,
}

/// The games of one group.
#[derive(Clone, Debug, Serialize)]
pub struct EndgameGroup {
    /// Material and attacking colour.
    pub group: String,
    /// Games played.
    pub games: usize,
    /// Games the stronger side won.
    pub won: usize,
    /// Mean length of the won games in turns.
    pub mean_turns_won: f64,
    /// Longest won game in turns.
    pub max_turns_won: u32,
}

/// The result of [`run_endgames`].
#[derive(Clone, Debug, Serialize)]
pub struct EndgameReport {
    /// Per group, in order of first appearance.
    pub groups: Vec<EndgameGroup>,
    /// Every game, in order.
    pub games: Vec<EndgameGame>,
    /// Wall time of the whole run.
    pub seconds: f64,
}

/// Plays every case out, `attack` playing the stronger side and `defend`
/// the bare king (a game is adjudicated a draw 60 turns after its start);
/// `on_game(index, game, elapsed)` sees each finished game.
pub fn run_endgames(
    cases: Vec<EndgameCase>,
    attack: &PlayerOptions,
    defend: &PlayerOptions,
    on_game: &mut dyn FnMut(usize, &EndgameGame, Duration),
) -> EndgameReport {
    let t0 = Instant::now();
    let mut games = Vec::new();
    for (n, case) in cases.into_iter().enumerate() {
        let pos = case.position;
        let attacker = pos.side_to_move();
        let start = pos.turn();
        let fen = pos.fen();
        let t = Instant::now();
        let (w, b) = if attacker == Color::White { (attack, defend) } else { (defend, attack) };
        let game = play_from(pos, w, b, start + MAX_GAME_TURNS, &mut |_| {});
        let result = game.result();
        let last_turn = game.position().turn() - 1;
        let g = EndgameGame {
            group: case.group,
            name: case.name,
            fen,
            won: result.and_then(|r| r.winner) == Some(attacker),
            result: result.map_or("*", |r| r.text()).to_string(),
            end: result.map(|r| format!("{:?}", r.end)),
            last_turn,
            turns: (last_turn + 1).saturating_sub(start),
            seconds: t.elapsed().as_secs_f64(),
            moves: game.notation(),
        };
        on_game(n, &g, t0.elapsed());
        games.push(g);
    }
    let mut groups: Vec<EndgameGroup> = Vec::new();
    for g in &games {
        if !groups.iter().any(|x| x.group == g.group) {
            let all: Vec<&EndgameGame> = games.iter().filter(|x| x.group == g.group).collect();
            let won: Vec<u32> = all.iter().filter(|x| x.won).map(|x| x.turns).collect();
            groups.push(EndgameGroup {
                group: g.group.clone(),
                games: all.len(),
                won: won.len(),
                mean_turns_won: won.iter().sum::<u32>() as f64 / won.len().max(1) as f64,
                max_turns_won: won.iter().copied().max().unwrap_or(0),
            });
        }
    }
    EndgameReport { groups, games, seconds: t0.elapsed().as_secs_f64() }
}
