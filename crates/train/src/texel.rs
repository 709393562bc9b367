//! Texel tuning: a logistic fit of the hand-written evaluation's weights to game results.
//!
//! [`Tuner`] loads `fen,result[,game]` lines (as [`crate::selfplay`] writes them), records
//! every position's term counts with the evaluation trace, fits the sigmoid scale K, then
//! minimises the mean squared error `(result - sigmoid(K * eval / 400))^2` over all weights
//! with Adam. [`format_weights`] writes the weights as Rust source for the engine's
//! `eval/params.rs`.

use bastion_core::Position;
use bastion_engine::eval::layout::{param_name, MATERIAL, NUM_PARAMS, PST, S};
use bastion_engine::eval::{self, Coefficients, MAX_PHASE};
use std::io::BufRead;

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

/// Reads `fen,result[,game]` lines, or the records of a packed `.bin` file
/// ([`crate::packed`]); bad lines or records are counted and skipped.
pub fn load(path: &std::path::Path) -> std::io::Result<(Vec<(Position, f64)>, usize)> {
    if crate::packed::DataFormat::of(path) == crate::packed::DataFormat::Packed {
        let (mut out, mut bad) = (Vec::new(), 0);
        let partial = crate::packed::for_each_record(path, |rec| match rec.unpack() {
            Ok((pos, _, result)) => out.push((pos, f64::from(result))),
            Err(_) => bad += 1,
        })?;
        return Ok((out, bad + usize::from(partial > 0)));
    }
    // Streamed line by line: any regular file will do, but not a device or a FIFO.
    let f = std::io::BufReader::new(bastion_core::io::open_checked(path, u64::MAX)?);
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
                if i == MATERIAL || (self.freeze_material && i < PST) {
                    continue;
                }
                for ph in 0..2 {
                    // L2 pull towards zero keeps rarely seen weights from running off.
                    let l2 = if i < PST { 0.0 } else { self.l2 };
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
    s.push_str("//! The evaluation weights, fitted by `bastion tune` (Texel tuning); see docs/engine.md.\n");
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
        let safety_checked = (eval::layout::SAFETY_ZONE..NUM_PARAMS).any(|i| grad[i][0] != 0.0);
        assert!(checked > 20 && safety_checked, "{checked} weights checked");
    }
}
