//! Texel tuning: self-play data generation and a logistic fit of the evaluation
//! weights to game results.
//!
//! 1. [`generate`] plays fast self-play games (fixed nodes per move) from
//!    randomised, roughly balanced openings and writes quiet positions with the
//!    game result as `fen,result,game` lines (result from White's view: 1, 0.5, 0);
//!    with [`GenConfig::scores`] each line also carries White's score from the game's
//!    own search (`fen,result,game,score`, the format `nnue label` writes), so one
//!    pass yields labelled training data for the network.
//!    Game `g` depends only on `g` and the settings, so generation is reproducible
//!    and can be resumed (finished games already in the file are skipped).
//! 2. [`Tuner`] loads such a file, records every position's term counts with the
//!    evaluation trace, fits the sigmoid scale K, then minimises the mean squared
//!    error `(result - sigmoid(K * eval / 400))^2` over all weights with Adam.
//! 3. [`format_weights`] writes the weights as Rust source for `eval/params.rs`.

use crate::eval::layout::{param_name, NUM_PARAMS, S};
use crate::eval::{self, Coefficients, MAX_PHASE};
use crate::options::EngineOptions;
use crate::score::is_decisive;
use crate::search::{Engine, Limits};
use bastion_core::{Color, Move, Position};
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

fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
    let mut rng = cfg.seed ^ game.wrapping_mul(0x2545_F491_4F6C_DD1D);
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
            pos = pos.play(moves[(splitmix(&mut rng) % moves.len() as u64) as usize]);
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
pub(crate) fn is_noisy(pos: &Position, m: Move) -> bool {
    crate::search::ordering::is_capture(pos, m) || m.is_promotion()
}

/// Games already present in a data file (for resuming): the third field of every line,
/// with or without a score after it.
pub fn finished_games(path: &std::path::Path) -> std::io::Result<std::collections::HashSet<u64>> {
    let mut set = std::collections::HashSet::new();
    if !path.exists() {
        return Ok(set);
    }
    let f = std::io::BufReader::new(std::fs::File::open(path)?);
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

/// One training position.
struct Sample {
    coef: Vec<(u16, i16)>,
    /// King-safety units of the white and the black king (non-linear, see `eval::safety_score`).
    safety: [Vec<(u16, i16)>; 2],
    mg_f: f64,
    eg_f: f64,
    result: f64,
}

/// The Texel tuner's data and state.
pub struct Tuner {
    samples: Vec<Sample>,
    /// Current weights as floats (mg, eg).
    pub weights: Vec<[f64; 2]>,
    /// Sigmoid scale.
    pub k: f64,
    /// L2 regularisation strength (per weight, on the mean squared error's scale).
    pub l2: f64,
    /// Keep every material weight at its starting value.
    pub freeze_material: bool,
}

/// Reads `fen,result[,game]` lines; bad lines are counted and skipped.
pub fn load(path: &std::path::Path) -> std::io::Result<(Vec<(Position, f64)>, usize)> {
    let f = std::io::BufReader::new(std::fs::File::open(path)?);
    let mut out = Vec::new();
    let mut bad = 0;
    for line in f.lines() {
        let line = line?;
        let mut parts = line.split(',');
        let (Some(fen), Some(res)) = (parts.next(), parts.next()) else {
            bad += 1;
            continue;
        };
        match (Position::from_fen(fen.trim()), res.trim().parse::<f64>()) {
            (Ok(p), Ok(r)) if (0.0..=1.0).contains(&r) => out.push((p, r)),
            _ => bad += 1,
        }
    }
    Ok((out, bad))
}

impl Tuner {
    /// Prepares the tuner from positions and results, starting at the engine's weights.
    pub fn new(data: &[(Position, f64)]) -> Tuner {
        let samples = data
            .iter()
            .map(|(p, r)| {
                let c: Coefficients = eval::coefficients(p);
                let ph = c.phase as f64 / MAX_PHASE as f64;
                // The endgame scale applies to the whole blended value (see `eval::taper`).
                let sc = c.scale as f64 / 64.0;
                Sample { coef: c.terms, safety: c.safety, mg_f: ph * sc, eg_f: (1.0 - ph) * sc, result: *r }
            })
            .collect();
        let weights = eval::params::WEIGHTS.iter().map(|s| [s.0 as f64, s.1 as f64]).collect();
        Tuner { samples, weights, k: 1.0, l2: 0.0, freeze_material: false }
    }

    /// Number of training positions.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// True if there is no data.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// King-safety units (mg, eg) of one king.
    fn units(&self, list: &[(u16, i16)]) -> (f64, f64) {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, n) in list {
            let w = &self.weights[i as usize];
            mg += w[0] * n as f64;
            eg += w[1] * n as f64;
        }
        (mg, eg)
    }

    fn eval(&self, s: &Sample) -> f64 {
        self.eval_with_units(s).0
    }

    /// The evaluation of `s`, and the king-safety units of the white and the black king
    /// (which the gradient needs again).
    fn eval_with_units(&self, s: &Sample) -> (f64, [(f64, f64); 2]) {
        let (mut mg, mut eg) = self.units(&s.coef);
        let mut king_units = [(0.0, 0.0); 2];
        for ((list, sign), ku) in s.safety.iter().zip([1.0, -1.0]).zip(king_units.iter_mut()) {
            if !list.is_empty() {
                let (um, ue) = self.units(list);
                mg -= sign * um.max(0.0).powi(2) / eval::SAFETY_MG_DIV as f64;
                eg -= sign * ue.max(0.0) / eval::SAFETY_EG_DIV as f64;
                *ku = (um, ue);
            }
        }
        (mg * s.mg_f + eg * s.eg_f, king_units)
    }

    fn sigmoid(&self, e: f64) -> f64 {
        1.0 / (1.0 + (-self.k * e / 400.0).exp())
    }

    /// Mean squared error of the current weights.
    pub fn error(&self) -> f64 {
        let sum: f64 = self.samples.iter().map(|s| (s.result - self.sigmoid(self.eval(s))).powi(2)).sum();
        sum / self.samples.len().max(1) as f64
    }

    /// Fits K by golden-section search on the current weights.
    pub fn fit_k(&mut self) -> f64 {
        let (mut a, mut b) = (0.1f64, 4.0f64);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..40 {
            let c = b - g * (b - a);
            let d = a + g * (b - a);
            self.k = c;
            let ec = self.error();
            self.k = d;
            let ed = self.error();
            if ec < ed {
                b = d;
            } else {
                a = c;
            }
        }
        self.k = (a + b) / 2.0;
        self.k
    }

    /// Runs `epochs` full-batch Adam steps with learning rate `lr`; calls `progress(epoch, error)`.
    /// Material weights of the pawn are held fixed to anchor the centipawn scale.
    pub fn train(&mut self, epochs: usize, lr: f64, progress: &mut dyn FnMut(usize, f64)) {
        let n = NUM_PARAMS;
        let mut m = vec![[0.0f64; 2]; n];
        let mut v = vec![[0.0f64; 2]; n];
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        for epoch in 1..=epochs {
            let grad = self.gradient();
            let inv = 1.0 / self.samples.len().max(1) as f64;
            for i in 0..n {
                // The pawn anchors the centipawn scale; with `freeze_material` every piece
                // value stays put and the other terms fit around it.
                if i == crate::eval::layout::MATERIAL || (self.freeze_material && i < crate::eval::layout::PST) {
                    continue;
                }
                for ph in 0..2 {
                    // L2 pull towards zero keeps rarely seen weights from running off.
                    let l2 = if i < crate::eval::layout::PST { 0.0 } else { self.l2 };
                    let gr = grad[i][ph] * inv + 2.0 * l2 * self.weights[i][ph];
                    m[i][ph] = b1 * m[i][ph] + (1.0 - b1) * gr;
                    v[i][ph] = b2 * v[i][ph] + (1.0 - b2) * gr * gr;
                    let mh = m[i][ph] / (1.0 - b1.powi(epoch as i32));
                    let vh = v[i][ph] / (1.0 - b2.powi(epoch as i32));
                    self.weights[i][ph] -= lr * mh / (vh.sqrt() + eps);
                }
            }
            if epoch % 10 == 0 || epoch == epochs {
                progress(epoch, self.error());
            }
        }
    }

    /// Summed error gradient over all samples, in a fixed number of chunks on their own
    /// threads: the summation order, and so the fitted weights, do not depend on the
    /// machine's core count.
    fn gradient(&self) -> Vec<[f64; 2]> {
        const CHUNKS: usize = 8;
        let chunk = self.samples.len().div_ceil(CHUNKS).max(1);
        let partial = |samples: &[Sample]| {
            let mut grad = vec![[0.0f64; 2]; NUM_PARAMS];
            for s in samples {
                let (e, king_units) = self.eval_with_units(s);
                let p = self.sigmoid(e);
                // d/de of (r - p)^2 = -2 (r - p) p (1 - p) K / 400
                let g = -2.0 * (s.result - p) * p * (1.0 - p) * self.k / 400.0;
                for &(i, c) in &s.coef {
                    let gi = &mut grad[i as usize];
                    gi[0] += g * c as f64 * s.mg_f;
                    gi[1] += g * c as f64 * s.eg_f;
                }
                for ((list, sign), (um, ue)) in s.safety.iter().zip([1.0, -1.0]).zip(king_units) {
                    if list.is_empty() {
                        continue;
                    }
                    // d/du of -u^2/D (u > 0) and of -u/D (u > 0).
                    let dm = -sign * 2.0 * um.max(0.0) / eval::SAFETY_MG_DIV as f64;
                    let de = if ue > 0.0 { -sign / eval::SAFETY_EG_DIV as f64 } else { 0.0 };
                    for &(i, c) in list {
                        let gi = &mut grad[i as usize];
                        gi[0] += g * c as f64 * dm * s.mg_f;
                        gi[1] += g * c as f64 * de * s.eg_f;
                    }
                }
            }
            grad
        };
        let parts: Vec<Vec<[f64; 2]>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self.samples.chunks(chunk).map(|c| scope.spawn(move || partial(c))).collect();
            handles.into_iter().map(|h| h.join().expect("gradient worker panicked")).collect()
        });
        let mut grad = vec![[0.0f64; 2]; NUM_PARAMS];
        for part in parts {
            for (g, p) in grad.iter_mut().zip(part) {
                g[0] += p[0];
                g[1] += p[1];
            }
        }
        grad
    }

    /// The weights rounded to integers.
    pub fn rounded(&self) -> Vec<S> {
        self.weights.iter().map(|w| S(w[0].round() as i32, w[1].round() as i32)).collect()
    }
}

/// Rust source defining `WEIGHTS` for `crates/engine/src/eval/params.rs`.
pub fn format_weights(w: &[S], header: &str) -> String {
    let mut s = String::new();
    s.push_str("//! The evaluation weights, fitted by `bastion tune` (Texel tuning); see notes/engine.md.\n");
    for l in header.lines() {
        s.push_str(&format!("//! {l}\n"));
    }
    s.push_str(
        "\nuse super::layout::*;\n\n/// The weights the engine plays with (see [`super::layout`] for the index map).\n",
    );
    s.push_str("#[rustfmt::skip]\npub static WEIGHTS: [S; NUM_PARAMS] = [\n");
    for (i, x) in w.iter().enumerate() {
        s.push_str(&format!("    S({}, {}), // {}\n", x.0, x.1, param_name(i)));
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let (train, _, bad) = crate::nnue::train::load(&path, 0.75, 0).unwrap();
        assert_eq!((train.len(), bad), (text.lines().count(), 0));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn gradient_matches_finite_differences_including_king_safety() {
        // Middlegame positions with attacks on the king, so that the non-linear
        // king-safety units are present, plus a quiet one and an ending.
        let fens = [
            ("r1bq1rk1/ppp2ppp/2n5/3np1N1/2B5/3P4/PPP2PPP/RNBQK2R w KQ - 0 8", 1.0),
            ("r4rk1/pp3ppp/2p5/4q3/2B1n2Q/8/PPP2PPP/R4RK1 b - - 0 16", 0.0),
            ("6k1/5ppp/8/3Q4/8/1q6/5PPP/6K1 w - - 0 40", 0.5),
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0.5),
            ("8/5k2/8/3K4/8/2R5/8/4n3 w - - 0 60", 1.0),
        ];
        let data: Vec<(Position, f64)> = fens.iter().map(|(f, r)| (Position::from_fen(f).unwrap(), *r)).collect();
        let mut t = Tuner::new(&data);
        t.k = 1.5;
        assert!(t.samples.iter().any(|s| !s.safety[0].is_empty() || !s.safety[1].is_empty()));
        let grad = t.gradient();
        let n = t.samples.len() as f64;
        let mut checked = 0;
        for (i, g) in grad.iter().enumerate() {
            for (ph, &gv) in g.iter().enumerate() {
                if gv == 0.0 {
                    continue;
                }
                let h = 1e-3;
                let w0 = t.weights[i][ph];
                t.weights[i][ph] = w0 + h;
                let up = t.error();
                t.weights[i][ph] = w0 - h;
                let down = t.error();
                t.weights[i][ph] = w0;
                let numeric = (up - down) / (2.0 * h);
                let analytic = gv / n;
                let tol = 1e-6 + 1e-3 * analytic.abs();
                assert!((numeric - analytic).abs() < tol, "{} {ph}: {numeric} vs {analytic}", param_name(i));
                checked += 1;
            }
        }
        let safety_checked = (crate::eval::layout::SAFETY_ZONE..NUM_PARAMS).any(|i| grad[i][0] != 0.0);
        assert!(checked > 20 && safety_checked, "{checked} weights checked");
    }
}
