//! Self-play data: fast games (fixed nodes per move) from randomised, roughly balanced
//! openings, whose quiet positions are written with the game result as `fen,result,game`
//! lines (result from White's view: 1, 0.5, 0).
//!
//! With [`GenConfig::scores`] each line also carries White's score from the game's own
//! search (`fen,result,game,score`, the format [`crate::label`] writes), so one pass yields
//! labelled training data for the network. Game `g` depends only on `g` and the settings,
//! so generation is reproducible and can be resumed (finished games already in the file are
//! skipped).

use bastion_core::rng::{splitmix64, Rng};
use bastion_core::{Color, Move, Position};
use bastion_engine::score::is_decisive;
use bastion_engine::search::ordering::is_capture;
use bastion_engine::search::{Engine, Limits};
use bastion_engine::EngineOptions;
use std::io::{BufRead, Write};

/// Settings of self-play generation.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub random_plies: usize,
    /// Seed mixed into each game's random opening.
    pub seed: u64,
    /// Append White's search score to every line (network training data).
    pub scores: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig { nodes: 3000, random_plies: 8, seed: 0x5EED, scores: false }
    }
}

/// A quiet position sampled from a self-play game.
#[derive(Clone, Debug)]
pub struct SampledPosition {
    /// The position.
    pub fen: String,
    /// White's score from the search that chose the game's move here.
    pub white_score: i32,
}

/// One generated game: sampled positions and the result from White's view.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number.
    pub game: u64,
    /// Result: 1.0 White won, 0.5 draw, 0.0 Black won.
    pub result: f64,
    /// Quiet positions sampled from the game.
    pub samples: Vec<SampledPosition>,
}

impl GameRecord {
    /// The game's data lines: `fen,result,game`, with `,score` appended when `scores`.
    pub fn lines(&self, scores: bool) -> String {
        let mut text = String::new();
        for s in &self.samples {
            text.push_str(&format!("{},{},{}", s.fen, self.result, self.game));
            if scores {
                text.push_str(&format!(",{}", s.white_score));
            }
            text.push('\n');
        }
        text
    }
}

/// Plays self-play game number `game`.
pub fn play_game(game: u64, cfg: &GenConfig, engine: &mut Engine) -> GameRecord {
    let mut rng = Rng::new(cfg.seed ^ splitmix64(game));
    let mut attempt = 0;
    // A random opening that is not already lopsided.
    let start = loop {
        attempt += 1;
        let mut pos = Position::startpos();
        let mut ok = true;
        for _ in 0..cfg.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        if !ok || !pos.has_legal_moves() {
            continue;
        }
        engine.clear();
        let r = engine.search(&pos, &[], &Limits::depth(6), &mut |_| {});
        if r.value.abs() <= 150 || attempt > 20 {
            break pos;
        }
    };
    engine.clear();
    let mut pos = start;
    let mut keys: Vec<u64> = Vec::new();
    let mut samples: Vec<SampledPosition> = Vec::new();
    let mut winning_plies = 0; // consecutive plies with a decisive score for the same side
    let mut last_winner = Color::White;
    let mut drawish_plies = 0;
    let result;
    let mut ply = 0;
    loop {
        if !pos.has_legal_moves() {
            result = if pos.in_check() {
                if pos.side_to_move() == Color::White {
                    0.0
                } else {
                    1.0
                }
            } else {
                0.5
            };
            break;
        }
        if pos.halfmove_clock() >= 100
            || pos.is_insufficient_material()
            || keys.iter().filter(|&&k| k == pos.key()).count() >= 2
        {
            result = 0.5;
            break;
        }
        if ply >= 400 {
            result = 0.5;
            break;
        }
        let r = engine.search(&pos, &keys, &Limits::nodes(cfg.nodes), &mut |_| {});
        let Some(best) = r.best else {
            result = 0.5;
            break;
        };
        let white_score = if pos.side_to_move() == Color::White { r.value } else { -r.value };
        // Adjudication keeps games short: a clearly won score for 6 plies, or a dead draw.
        let winner = if white_score > 0 { Color::White } else { Color::Black };
        if white_score.abs() >= 1000 || is_decisive(r.value) {
            if winner == last_winner {
                winning_plies += 1;
            } else {
                winning_plies = 1;
                last_winner = winner;
            }
            if winning_plies >= 6 {
                result = if winner == Color::White { 1.0 } else { 0.0 };
                break;
            }
        } else {
            winning_plies = 0;
        }
        if ply > 80 && white_score.abs() <= 8 {
            drawish_plies += 1;
            if drawish_plies >= 12 {
                result = 0.5;
                break;
            }
        } else {
            drawish_plies = 0;
        }
        let quiet = !pos.in_check() && !is_noisy(&pos, best) && r.value.abs() < 1500;
        if quiet && ply >= 4 {
            samples.push(SampledPosition { fen: pos.fen(), white_score });
        }
        keys.push(pos.key());
        pos = pos.play(best);
        ply += 1;
    }
    GameRecord { game, result, samples }
}

/// A capture or promotion (positions whose best move is one are not quiet).
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    is_capture(pos, m) || m.is_promotion()
}

/// Prepares the data file at `path` for more games: cuts off a partial last line left by an
/// interrupted run and returns the games already in it (see [`finished_games`]).
pub fn resume(path: &std::path::Path) -> std::io::Result<std::collections::HashSet<u64>> {
    crate::complete_lines(path)?;
    finished_games(path)
}

/// Games already present in a data file (for resuming): the third field of every line,
/// with or without a score after it.
pub fn finished_games(path: &std::path::Path) -> std::io::Result<std::collections::HashSet<u64>> {
    let mut set = std::collections::HashSet::new();
    if !path.exists() {
        return Ok(set);
    }
    // Streamed line by line: any regular file will do, but not a device or a FIFO.
    let f = std::io::BufReader::new(bastion_core::io::open_checked(path, u64::MAX)?);
    for line in f.lines() {
        let line = line?;
        if let Some(g) = line.split(',').nth(2).and_then(|g| g.trim().parse::<u64>().ok()) {
            set.insert(g);
        }
    }
    Ok(set)
}

/// Plays games `0..n` (skipping those in `done`) on `threads` threads, appending each
/// finished game to `out` as one write. `progress` is called after every game.
pub fn generate(
    n: u64,
    threads: usize,
    cfg: &GenConfig,
    done: &std::collections::HashSet<u64>,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(&GameRecord) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> std::io::Result<()> {
    let next = std::sync::atomic::AtomicU64::new(0);
    let out = std::sync::Mutex::new(out);
    let err: std::sync::Mutex<Option<std::io::Error>> = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut engine = Engine::new(EngineOptions { hash_mb: 8, ..EngineOptions::default() });
                loop {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                    let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if g >= n {
                        break;
                    }
                    if done.contains(&g) {
                        continue;
                    }
                    let rec = play_game(g, cfg, &mut engine);
                    let text = rec.lines(cfg.scores);
                    let mut o = out.lock().unwrap_or_else(|p| p.into_inner());
                    if let Err(e) = o.write_all(text.as_bytes()).and_then(|_| o.flush()) {
                        *err.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        break;
                    }
                    drop(o);
                    progress(&rec);
                }
            });
        }
    });
    match err.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texel::{format_weights, Tuner};

    #[test]
    fn self_play_game_is_reproducible_and_tuner_reduces_error() {
        let cfg = GenConfig { nodes: 300, random_plies: 6, seed: 1, scores: false };
        let mut e = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
        let a = play_game(3, &cfg, &mut e);
        let b = play_game(3, &cfg, &mut e);
        assert_eq!(a.lines(true), b.lines(true));
        assert!([0.0, 0.5, 1.0].contains(&a.result));
        let mut data = Vec::new();
        for g in 0..4 {
            let r = play_game(g, &cfg, &mut e);
            data.extend(r.samples.iter().map(|s| (Position::from_fen(&s.fen).unwrap(), r.result)));
        }
        assert!(!data.is_empty());
        let mut t = Tuner::new(&data);
        t.fit_k();
        let before = t.error();
        t.train(20, 1.0, &mut |_, _| {});
        assert!(t.error() < before, "{} !< {}", t.error(), before);
        let src = format_weights(&t.rounded(), "test");
        assert!(src.contains("pub static WEIGHTS"));
    }

    #[test]
    fn scored_lines_resume_and_train_like_labelled_ones() {
        let dir = std::env::temp_dir().join(format!("bastion-gen-scores-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("sp.csv");
        let cfg = GenConfig { nodes: 300, random_plies: 6, seed: 7, scores: true };
        let mut out: Vec<u8> = Vec::new();
        let stop = std::sync::atomic::AtomicBool::new(false);
        generate(3, 1, &cfg, &Default::default(), &mut out, &|_| {}, &stop).unwrap();
        std::fs::write(&path, &out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().count() > 10, "{text}");
        let mut e = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
        let (mut checked, mut agreed) = (0usize, 0usize);
        for line in text.lines() {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 4, "{line}");
            let score: i32 = f[3].parse().unwrap();
            assert!(score.abs() < 1500, "{line}");
            // The score is White's: a search of the same position from the side to move agrees in sign
            // whenever either is clearly non-zero.
            let pos = Position::from_fen(f[0]).unwrap();
            if score.abs() >= 300 {
                e.clear();
                let r = e.search(&pos, &[], &Limits::nodes(300), &mut |_| {});
                let white = if pos.side_to_move() == Color::White { r.value } else { -r.value };
                // A fresh search can differ from the game's (which had its tables warm) in a
                // sharp position, so a sign bug shows as most of them disagreeing, not one.
                checked += 1;
                agreed += usize::from(white.signum() == score.signum());
            }
        }
        assert!(agreed * 5 >= checked * 4, "{agreed} of {checked} scores agree in sign");
        // Resuming reads the game number from the third field, not the score after it.
        let done = finished_games(&path).unwrap();
        assert_eq!(done, text.lines().map(|l| l.split(',').nth(2).unwrap().parse().unwrap()).collect());
        assert!(done.iter().all(|&g| g < 3));
        // The network trainer reads these lines as labelled positions: none is rejected.
        let (train, _, bad) = crate::dataset::load(&path, 0.75, 0).unwrap();
        assert_eq!((train.len(), bad), (text.lines().count(), 0));
        std::fs::remove_dir_all(&dir).ok();
    }
}
