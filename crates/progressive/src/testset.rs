//! The mate test set: positions with a mate in the current series taken
//! from self-play games (as in Janko 2015, §4.3.1), and their collection.
//!
//! File format, one position per line: `<progressive FEN>;<mating moves in UCI>`.
//! Lines starting with `#` are comments.

use crate::error::ProgressiveError;
use crate::game::{series_uci, Game};
use crate::mate::{exhaustive_mate, find_mate, MateOptions, MateOutcome, Variant};
use crate::player::{choose_series, PlayerOptions};
use crate::rules::Rules;
use crate::series::SeriesPosition;
use bastion_core::rng::Rng;
use bastion_core::Move;
use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

/// One test position with a known mate.
#[derive(Clone, Debug)]
pub struct MateCase {
    /// The position (start of the mating series).
    pub position: SeriesPosition,
    /// A mate, replayed and confirmed when loaded.
    pub mate: Vec<Move>,
}

impl MateCase {
    /// The line for the test-set file.
    pub fn line(&self) -> String {
        format!("{};{}", self.position.fen(), series_uci(&self.position, &self.mate).join(" "))
    }

    /// Reads a line and confirms that its moves are a legal mate.
    pub fn parse(line: &str, rules: Rules) -> Result<MateCase, ProgressiveError> {
        let (fen, moves) =
            line.split_once(';').ok_or_else(|| ProgressiveError::BadRecord(format!("no ';' in {line:?}")))?;
        let position = SeriesPosition::from_fen(fen.trim(), None, rules)?;
        let mut p = position.clone();
        let mut mate = Vec::new();
        for t in moves.split_whitespace() {
            let m = p.parse_move(t)?;
            mate.push(m);
            p = p.play_unchecked(m);
        }
        if mate.len() as u32 != position.moves_left() || !p.is_checkmate() {
            return Err(ProgressiveError::BadRecord(format!("the moves do not mate: {line}")));
        }
        Ok(MateCase { position, mate })
    }
}

/// Loads a test-set file (every mate is confirmed by replay).
pub fn load(text: &str, rules: Rules) -> Result<Vec<MateCase>, ProgressiveError> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| MateCase::parse(l, rules))
        .collect()
}

/// Keeps the first `n` cases of each series length, in file order.
pub fn first_per_length(cases: Vec<MateCase>, n: usize) -> Vec<MateCase> {
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    cases
        .into_iter()
        .filter(|c| {
            let e = seen.entry(c.position.series_len()).or_default();
            *e += 1;
            *e <= n
        })
        .collect()
}

/// Looks for a mate with several methods, so the test set is not made only
/// of the mates the default search finds fastest: exhaustive search for
/// short series, then A* and best-first with the coverage heuristic.
pub fn scan_for_mate(pos: &SeriesPosition, budget: Duration) -> Option<Vec<Move>> {
    if pos.moves_left() <= 5 {
        let r = exhaustive_mate(pos, budget / 2, None);
        match r.outcome {
            MateOutcome::Found => return r.moves,
            MateOutcome::NoMate => return None,
            MateOutcome::Unknown => {}
        }
    }
    let a = find_mate(pos, &MateOptions { time_limit: budget / 2, ..MateOptions::default() });
    if a.found() {
        return a.moves;
    }
    let b =
        find_mate(pos, &MateOptions { time_limit: budget / 2, variant: Variant::BestFirst, ..MateOptions::default() });
    b.moves
}

/// How [`generate`] collects mate positions from self-play games.
#[derive(Clone, Debug)]
pub struct GenerateConfig {
    /// Positions wanted per series length.
    pub per_length: usize,
    /// Shortest series length collected.
    pub min_len: u32,
    /// Longest series length collected.
    pub max_len: u32,
    /// Time of the mate scan at each turn.
    pub scan_time: Duration,
    /// Time per turn of the self-play players.
    pub player_time: Duration,
    /// Games to play at most.
    pub games: u32,
    /// Probability that a player who has a mate plays on without it (so games continue).
    pub skip: f32,
    /// Probability that a turn before the 6th is played without mate prevention.
    pub weak_opening: f32,
    /// Probability that turn 3, 4 or 5 is played by uniformly random legal moves.
    pub random_opening: f32,
    /// Score noise of the self-play players (pawns).
    pub noise: f32,
}

/// Progress of [`generate`] after one game.
pub struct GenerateProgress<'a> {
    /// The game's number, from 0.
    pub game: u32,
    /// Turns the game lasted.
    pub turns: u32,
    /// Time since the collection began.
    pub elapsed: Duration,
    /// Positions held per series length, those found earlier included.
    pub counts: &'a BTreeMap<u32, usize>,
}

/// The random seed of a collection that resumes a file holding `cases`
/// positions in `text_len` bytes, so that every resumption plays new games.
pub fn resume_seed(cases: usize, text_len: usize) -> u64 {
    0x5EED_0000 + cases as u64 * 7717 + text_len as u64
}

/// Plays self-play games (Italian rules) and scans every turn of a wanted
/// series length for a mate; `on_case` receives each new position (confirmed
/// by replay) and `on_game` each finished game. Positions in `existing`
/// count toward the quota and are not collected again. Stops when every
/// length in `min_len..=max_len` holds `per_length` positions or after
/// `games` games.
pub fn generate<E: From<ProgressiveError>>(
    config: &GenerateConfig,
    existing: &[MateCase],
    seed: u64,
    mut on_case: impl FnMut(&MateCase) -> Result<(), E>,
    mut on_game: impl FnMut(&GenerateProgress),
) -> Result<(), E> {
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    let mut seen: HashSet<u64> = HashSet::new();
    for c in existing {
        *counts.entry(c.position.series_len()).or_default() += 1;
        seen.insert(c.position.key());
    }
    let full = |counts: &BTreeMap<u32, usize>, l: u32| counts.get(&l).copied().unwrap_or(0) >= config.per_length;
    let mut rng = Rng::new(seed);
    let t0 = Instant::now();
    for g in 0..config.games {
        if (config.min_len..=config.max_len).all(|l| full(&counts, l)) {
            break;
        }
        let game_seed = seed.wrapping_add(g as u64 * 104_729);
        let player = PlayerOptions {
            depth: 0,
            time: config.player_time,
            seed: game_seed,
            noise: config.noise,
            wide_book: true,
            ..PlayerOptions::default()
        };
        let skip_player = PlayerOptions { skip_mate_search: true, ..player.clone() };
        let mut game = Game::new(Rules::Italian);
        while game.result().is_none() && game.position().turn() <= 30 {
            let pos = game.position().clone();
            let len = pos.series_len();
            let mut has_mate = false;
            if (config.min_len..=config.max_len).contains(&len) && !full(&counts, len) && !seen.contains(&pos.key()) {
                if let Some(m) = scan_for_mate(&pos, config.scan_time) {
                    has_mate = true;
                    let case = MateCase { position: pos.clone(), mate: m };
                    // Confirm by replay before handing it on.
                    if MateCase::parse(&case.line(), Rules::Italian).is_ok() {
                        on_case(&case)?;
                        *counts.entry(len).or_default() += 1;
                        seen.insert(pos.key());
                    }
                }
            }
            let opts = if has_mate && rng.unit() < config.skip { &skip_player } else { &player };
            let mut o = opts.clone();
            if pos.turn() < 6 && rng.unit() < config.weak_opening {
                o.prevent_mates = false;
            }
            o.seed = game_seed ^ pos.turn() as u64;
            if pos.turn() >= 3 && pos.turn() < 6 && rng.unit() < config.random_opening {
                play_random_series(&mut game, &mut rng)?;
                continue;
            }
            let Some(choice) = choose_series(&pos, &o) else { break };
            game.play_series(&choice.moves)?;
        }
        on_game(&GenerateProgress {
            game: g,
            turns: game.position().turn() - 1,
            elapsed: t0.elapsed(),
            counts: &counts,
        });
    }
    Ok(())
}

/// Plays the rest of the current series by uniformly random legal moves (a
/// beginner's turn, so that early mates occur at all).
fn play_random_series(game: &mut Game, rng: &mut Rng) -> Result<(), ProgressiveError> {
    let pos = game.position().clone();
    let mut p = pos.clone();
    while game.position().played() != 0 || p == pos {
        let legal = p.legal_moves();
        if legal.is_empty() || game.result().is_some() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        game.play(m)?;
        p = game.position().clone();
        if p.played() == 0 {
            break;
        }
    }
    Ok(())
}
