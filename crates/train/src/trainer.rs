//! Minibatch Adam on the CPU in floating point: the loss is the squared error between the
//! network's win probability `σ(output/K)` and each position's target (see
//! [`crate::dataset`]); [`FloatNetwork::quantise`] then gives the engine's network.

use crate::dataset::{sigmoid, Dataset, WDL_CP};
use crate::network::{add_row, FloatNetwork, OUT};
use bastion_core::rng::Rng;
use bastion_core::Color;
use bastion_engine::nnue::{bucket, relative, HIDDEN, INPUTS, QA, QB, SCALE};

/// Largest |output weight| (keeps the quantised dot product inside i16 products).
const OUT_CLIP: f32 = 127.0 / QB as f32;
/// Largest |input weight or bias| (keeps accumulators far from i16 overflow).
const FT_CLIP: f32 = 32767.0 / QA as f32 / 32.0;

/// Gradient sums of one thread: one value per weight, and the summed loss.
struct Grad {
    d: FloatNetwork,
    loss: f64,
}

impl Grad {
    /// Zero sums for a network shaped like `net` (merged: no factor).
    fn new(net: &FloatNetwork) -> Grad {
        Grad { d: FloatNetwork::zeros_like(net), loss: 0.0 }
    }
}

/// Whether position `i` is seen mirrored left to right under the salt `salt` (half of the
/// mirrorable positions, a different half for each salt; none without a salt).
fn mirrored(data: &Dataset, i: usize, salt: Option<u64>) -> bool {
    salt.is_some_and(|s| data.mirrorable[i] && (i as u64 ^ s).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1)
}

/// The input of the same piece on the same rank, other file (a ↔ h): only the file bits change.
#[inline(always)]
fn mirror_file(f: u16) -> u16 {
    f ^ 7
}

/// Loss and gradient of `net` (merged: no factor) on positions `idx` of `data`, added to `g`;
/// with `salt`, half the positions without castling rights are seen mirrored left to right
/// ([`mirrored`]). On a CPU with AVX2 the same code runs compiled for it (about 1.6 times as
/// many positions a second; the results are bit for bit the same, since nothing is fused).
fn accumulate(net: &FloatNetwork, data: &Dataset, idx: &[u32], salt: Option<u64>, g: &mut Grad) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the AVX2 copy needs only AVX2, which the CPU was just seen to have.
        return unsafe { accumulate_avx2(net, data, idx, salt, g) };
    }
    accumulate_rows(net, data, idx, salt, g)
}

/// [`accumulate`] compiled for AVX2: 256-bit adds over the hidden units' rows instead of
/// SSE2's 128-bit ones.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn accumulate_avx2(net: &FloatNetwork, data: &Dataset, idx: &[u32], salt: Option<u64>, g: &mut Grad) {
    accumulate_rows(net, data, idx, salt, g)
}

/// The body of [`accumulate`], inlined into each compiled copy.
#[inline(always)]
fn accumulate_rows(net: &FloatNetwork, data: &Dataset, idx: &[u32], salt: Option<u64>, g: &mut Grad) {
    let mut flipped = Vec::with_capacity(32);
    let mut acc = vec![0.0f32; 2 * HIDDEN];
    let mut dacc = vec![0.0f32; 2 * HIDDEN];
    let k = SCALE as f32 / WDL_CP;
    for &i in idx {
        let i = i as usize;
        let mut inputs = data.inputs(i);
        if mirrored(data, i, salt) {
            flipped.clear();
            flipped.extend(inputs.iter().map(|&f| mirror_file(f)));
            inputs = &flipped;
        }
        let white = data.white_to_move[i];
        let y = net.forward(inputs, white, &mut acc);
        let p = sigmoid(y * k);
        let t = data.target[i];
        g.loss += ((p - t) * (p - t)) as f64;
        let dy = 2.0 * (p - t) * p * (1.0 - p) * k;
        let b = bucket(inputs.len() as u32);
        g.d.out_b[b] += dy;
        let (dw, w) = (&mut g.d.out_w[b * OUT..(b + 1) * OUT], &net.out_w[b * OUT..(b + 1) * OUT]);
        for j in 0..OUT {
            let a = acc[j];
            let c = a.clamp(0.0, 1.0);
            dw[j] += dy * c * c;
            dacc[j] = if a > 0.0 && a < 1.0 { dy * w[j] * 2.0 * a } else { 0.0 };
        }
        let (du, dt) = dacc.split_at(HIDDEN);
        for j in 0..HIDDEN {
            g.d.ft_b[j] += du[j] + dt[j];
        }
        let views = net.kings.views_of(inputs.iter().map(|&f| f as usize));
        let (pu, pt) = if white { (0, 1) } else { (1, 0) };
        for &f in inputs {
            let (fu, ft) = (views[pu].row(relative(pu, f as usize)), views[pt].row(relative(pt, f as usize)));
            add_row(&mut g.d.ft_w[fu * HIDDEN..(fu + 1) * HIDDEN], du);
            add_row(&mut g.d.ft_w[ft * HIDDEN..(ft + 1) * HIDDEN], dt);
        }
    }
}

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Initial learning rate; it falls by 10× at 60% and again at 85% of the epochs.
    pub lr: f32,
    /// Worker threads.
    pub threads: usize,
    /// Seed for the initial weights and the shuffles.
    pub seed: u64,
    /// Show half the positions without castling rights mirrored left to right in each epoch (a
    /// different half each time): chess without castling is symmetric that way, so this doubles
    /// the examples the data holds.
    pub mirror_files: bool,
    /// Learning rate of the king buckets' own input rows, as a fraction of the rest's (the
    /// factor's included): below 1, a bucket departs from the shared rows only as far as many
    /// positions agree, instead of fitting the few its rows see.
    pub bucket_lr: f32,
}

/// Adam state for all weights.
pub struct Trainer {
    /// Current weights.
    pub net: FloatNetwork,
    m: FloatNetwork,
    v: FloatNetwork,
    step: u64,
}

impl Trainer {
    /// A trainer starting from `net`.
    pub fn new(net: FloatNetwork) -> Trainer {
        let (m, v) = (FloatNetwork::zeros_like(&net), FloatNetwork::zeros_like(&net));
        Trainer { net, m, v, step: 0 }
    }

    /// Mean loss of the current weights on `data`.
    pub fn loss(&self, data: &Dataset, threads: usize) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let idx: Vec<u32> = (0..data.len() as u32).collect();
        self.gradient(data, &idx, None, threads).loss / data.len() as f64
    }

    /// Mean loss of the quantised network (what the engine runs) on `data`.
    pub fn quantised_loss(&self, data: &Dataset) -> f64 {
        let net = self.net.quantise();
        let sum: f64 = (0..data.len())
            .map(|i| {
                let inputs = data.inputs(i);
                let acc = net.accumulate(inputs.iter().map(|&f| f as usize));
                let stm = if data.white_to_move[i] { Color::White } else { Color::Black };
                let p = sigmoid(net.output(&acc, stm, inputs.len() as u32) as f32 / WDL_CP);
                ((p - data.target[i]) as f64).powi(2)
            })
            .sum();
        sum / data.len().max(1) as f64
    }

    /// Loss and gradient on positions `idx`, with respect to the merged input rows (see
    /// [`Trainer::adam`] for the factor's share).
    fn gradient(&self, data: &Dataset, idx: &[u32], salt: Option<u64>, threads: usize) -> Grad {
        let net = self.net.merged();
        let net = &*net;
        let per = idx.len().div_ceil(threads.max(1)).max(1);
        let mut grads: Vec<Grad> = std::thread::scope(|s| {
            let hs: Vec<_> = idx
                .chunks(per)
                .map(|chunk| {
                    s.spawn(move || {
                        let mut g = Grad::new(net);
                        accumulate(net, data, chunk, salt, &mut g);
                        g
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().expect("training thread")).collect()
        });
        let mut total = grads.pop().unwrap_or_else(|| Grad::new(net));
        for mut g in grads {
            for (t, x) in total.d.params().into_iter().zip(g.d.params()) {
                add_row(t, x);
            }
            total.loss += g.loss;
        }
        total
    }

    /// One epoch over `data` in shuffled minibatches at learning rate `lr`; returns the mean training loss.
    pub fn epoch(&mut self, data: &Dataset, cfg: &TrainConfig, lr: f32, shuffle_seed: u64) -> f64 {
        let mut idx: Vec<u32> = (0..data.len() as u32).collect();
        Rng::new(shuffle_seed).shuffle(&mut idx);
        let salt = cfg.mirror_files.then_some(shuffle_seed);
        let mut loss = 0.0;
        for batch in idx.chunks(cfg.batch.max(1)) {
            let g = self.gradient(data, batch, salt, cfg.threads);
            loss += g.loss;
            self.adam(g, lr, cfg.bucket_lr, batch.len() as f32);
        }
        loss / data.len().max(1) as f64
    }

    /// One Adam step at learning rate `lr` (`lr · bucket_lr` for the king buckets' own rows when
    /// they are factorised) with the gradient `g` summed over `n` positions.
    fn adam(&mut self, mut g: Grad, lr: f32, bucket_lr: f32, n: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step as i32);
        let c2 = 1.0 - B2.powi(self.step as i32);
        let step = |w: &mut f32, m: &mut f32, v: &mut f32, g: f32, clip: f32, lr: f32| {
            let g = g / n;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *w = w.clamp(-clip, clip);
        };
        // A factor row is shared by every bucket's copy of its input, so its gradient is the sum
        // of theirs.
        if !self.net.ft_f.is_empty() {
            g.d.ft_f = vec![0.0; INPUTS * HIDDEN];
            for block in g.d.ft_w.chunks_exact(INPUTS * HIDDEN) {
                add_row(&mut g.d.ft_f, block);
            }
        }
        let grads = g.d.params();
        let clips = [FT_CLIP, FT_CLIP, OUT_CLIP, f32::MAX, FT_CLIP];
        let bucket_lr = if self.net.ft_f.is_empty() { lr } else { lr * bucket_lr };
        let lrs = [bucket_lr, lr, lr, lr, lr];
        let (ws, ms, vs) = (self.net.params(), self.m.params(), self.v.params());
        for (((((w, m), v), g), clip), lr) in ws.into_iter().zip(ms).zip(vs).zip(grads).zip(clips).zip(lrs) {
            for (((w, m), v), g) in w.iter_mut().zip(m.iter_mut()).zip(v.iter_mut()).zip(g.iter()) {
                step(w, m, v, *g, clip, lr);
            }
        }
    }

    /// The learning rate of epoch `e` (0-based) under `cfg`'s schedule.
    pub fn lr_at(cfg: &TrainConfig, e: usize) -> f32 {
        let f = e as f32 / cfg.epochs.max(1) as f32;
        if f >= 0.85 {
            cfg.lr / 100.0
        } else if f >= 0.6 {
            cfg.lr / 10.0
        } else {
            cfg.lr
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastion_core::Position;
    use bastion_engine::nnue::{KingLayout, Network, BUCKETS};

    const FENS: [(&str, f32); 4] = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0.5),
        ("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1.0),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1", 0.0),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0.8),
    ];

    #[test]
    fn the_avx2_gradient_is_the_portable_one_bit_for_bit() {
        let data = tiny_data();
        let idx: Vec<u32> = (0..data.len() as u32).collect();
        for (seed, salt) in [(1, None), (2, Some(5))] {
            let net = FloatNetwork::random(seed);
            let mut portable = Grad::new(&net);
            accumulate_rows(&net, &data, &idx, salt, &mut portable);
            let mut picked = Grad::new(&net);
            accumulate(&net, &data, &idx, salt, &mut picked);
            assert_eq!(portable.loss.to_bits(), picked.loss.to_bits());
            for (a, b) in portable.d.params().into_iter().zip(picked.d.params()) {
                assert!(a.iter().zip(b.iter()).all(|(x, y)| x.to_bits() == y.to_bits()));
            }
        }
    }

    fn tiny_data() -> Dataset {
        let mut d = Dataset::default();
        for (fen, t) in FENS {
            d.push(&Position::from_fen(fen).unwrap(), t, false);
        }
        d
    }

    /// The loss's slope in weight `j` of parameter block `which` (see `FloatNetwork::params`),
    /// by central differences.
    fn numeric_gradient(tr: &Trainer, which: usize, j: usize, loss: impl Fn(&Trainer) -> f64) -> f64 {
        let eps = 1e-3;
        let mut plus = Trainer::new(tr.net.clone());
        plus.net.params()[which][j] += eps;
        let mut minus = Trainer::new(tr.net.clone());
        minus.net.params()[which][j] -= eps;
        (loss(&plus) - loss(&minus)) / (2.0 * eps as f64)
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = tiny_data();
        let mut tr = Trainer::new(FloatNetwork::random(7));
        // Put some hidden units into the curved part of the activation.
        tr.net.ft_b.iter_mut().for_each(|b| *b += 0.5);
        let idx: Vec<u32> = (0..data.len() as u32).collect();
        let g = tr.gradient(&data, &idx, None, 2);
        let loss = |t: &Trainer| t.gradient(&data, &idx, None, 1).loss;
        // The positions use output buckets 7 (full boards) and 0 (king and pawn v king).
        let checks: [(usize, usize); 7] =
            [(0, 5 * HIDDEN + 3), (0, (64 + 12) * HIDDEN + 1), (1, 7), (2, 200), (2, 7 * OUT + 300), (3, 0), (3, 7)];
        for (which, j) in checks {
            let numeric = numeric_gradient(&tr, which, j, loss);
            let analytic = [&g.d.ft_w, &g.d.ft_b, &g.d.out_w, &g.d.out_b][which][j] as f64;
            assert!((numeric - analytic).abs() < 1e-3 + 0.02 * analytic.abs(), "{which}/{j}: {numeric} vs {analytic}");
        }
    }

    #[test]
    fn factorised_gradient_matches_finite_differences() {
        let data = tiny_data();
        let kings = KingLayout::by_name("mirror4").unwrap();
        let mut tr = Trainer::new(FloatNetwork::random_with(7, kings));
        tr.net.ft_b.iter_mut().for_each(|b| *b += 0.5);
        // Buckets that differ from each other and from the factor.
        let mut rng = Rng::new(99);
        tr.net.ft_w.iter_mut().for_each(|w| *w = rng.symmetric(0.05));
        let idx: Vec<u32> = (0..data.len() as u32).collect();
        let g = tr.gradient(&data, &idx, None, 2);
        let loss = |t: &Trainer| t.gradient(&data, &idx, None, 1).loss;
        // The start position's White king (e1, mirrored to d1) uses bucket 1: its input
        // rook a1 (mirrored h1, own rook 3·64 + 7) has a bucket row and a factor row; so has its
        // pawn e2 (mirrored d2, input 11).
        let rook = 3 * 64 + 7;
        let checks = [(0, (INPUTS + rook) * HIDDEN + 5), (4, rook * HIDDEN + 5), (4, 11 * HIDDEN + 1)];
        let factor_grad: Vec<f32> =
            (0..INPUTS * HIDDEN).map(|j| g.d.ft_w.chunks_exact(INPUTS * HIDDEN).map(|block| block[j]).sum()).collect();
        for (which, j) in checks {
            let numeric = numeric_gradient(&tr, which, j, loss);
            let analytic = if which == 4 { factor_grad[j] } else { g.d.ft_w[j] } as f64;
            assert!(analytic.abs() > 1e-6, "{which}/{j}: a weight the positions use");
            assert!((numeric - analytic).abs() < 1e-3 + 0.02 * analytic.abs(), "{which}/{j}: {numeric} vs {analytic}");
        }
    }

    #[test]
    fn a_bucket_learning_rate_of_zero_trains_only_the_shared_rows() {
        let data = tiny_data();
        let kings = KingLayout::by_name("kings4").unwrap();
        let cfg =
            TrainConfig { epochs: 3, batch: 2, lr: 0.01, threads: 1, seed: 1, mirror_files: false, bucket_lr: 0.0 };
        let mut tr = Trainer::new(FloatNetwork::random_with(cfg.seed, kings));
        let before = tr.loss(&data, 1);
        for e in 0..cfg.epochs {
            tr.epoch(&data, &cfg, cfg.lr, e as u64 + 1);
        }
        assert!(tr.net.ft_w.iter().all(|&w| w == 0.0), "the buckets' own rows stay where they started");
        assert!(tr.loss(&data, 1) < before, "the factor and the rest still learn");
        let cfg = TrainConfig { bucket_lr: 0.5, ..cfg };
        tr.epoch(&data, &cfg, cfg.lr, 9);
        assert!(tr.net.ft_w.iter().any(|&w| w != 0.0));
    }

    #[test]
    fn a_network_spread_over_king_buckets_starts_as_it_was() {
        let kings = KingLayout::by_name("mirror4").unwrap();
        let plain = FloatNetwork::random(21);
        let spread = plain.clone().with_king_layout(kings);
        assert_eq!((spread.ft_w.len(), spread.ft_f.len()), (4 * INPUTS * HIDDEN, INPUTS * HIDDEN));
        let (plain_q, spread_q) = (plain.quantise(), spread.quantise());
        // Both kings on files a–d: nothing is mirrored, so the value is the plain network's.
        let fen = "1k1r4/ppp5/8/8/8/8/PPP5/1K1R4 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(spread_q.evaluate(&pos), plain_q.evaluate(&pos));
        // Both on e–h: the plain network's value of the mirrored position.
        let pos = Position::from_fen("4r1k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1").unwrap();
        assert_eq!(spread_q.evaluate(&pos), plain_q.evaluate(&Position::from_fen(fen).unwrap()));
        // The checkpoint keeps the layout and the factor.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.ckpt");
        let mut trained = spread.clone();
        trained.ft_w[12345] = 0.25;
        trained.save(&path).unwrap();
        let back = FloatNetwork::load(&path).unwrap();
        assert_eq!(back.king_layout(), kings);
        assert!(back.ft_w == trained.ft_w && back.ft_f == trained.ft_f && back.out_w == trained.out_w);
        std::fs::write(&path, &std::fs::read(&path).unwrap()[..1000]).unwrap();
        assert!(FloatNetwork::load(&path).is_err());
        plain.save(&path).unwrap();
        assert_eq!(FloatNetwork::load(&path).unwrap().king_layout(), KingLayout::NONE);
        // Without mirroring, the spread network is the plain one wherever the kings stand.
        let exact = plain.clone().with_king_layout(KingLayout::by_name("kings4").unwrap()).quantise();
        for fen in ["r4rk1/pp3ppp/2n5/3p4/8/2N5/PP3PPP/2KR3R w - - 0 1", "8/5pk1/6p1/3Pp3/1r6/5P2/6PK/R7 b - - 0 40"] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(exact.evaluate(&pos), plain_q.evaluate(&pos), "{fen}");
        }
        // Spreading twice, or over no buckets, changes nothing.
        assert!(spread.clone().with_king_layout(kings).ft_f == spread.ft_f);
        assert!(plain.clone().with_king_layout(KingLayout::NONE).ft_f.is_empty());
    }

    /// `fen` with every rank read right to left (files a ↔ h); castling rights are dropped.
    fn fen_mirrored_left_right(fen: &str) -> String {
        let f: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = f[0].split('/').map(|r| r.chars().rev().collect()).collect();
        let ep = match f[3].as_bytes() {
            [file, rank] => format!("{}{}", (b'h' - (file - b'a')) as char, *rank as char),
            _ => "-".into(),
        };
        format!("{} {} - {ep} {} {}", board.join("/"), f[1], f[4], f[5])
    }

    #[test]
    fn mirrored_training_sees_each_position_as_its_left_right_mirror() {
        let fens = [
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w - - 0 9",
            "8/5pk1/6p1/3Pp3/1r6/5P2/6PK/R7 w - e6 0 40",
            "r3k2r/pppq1ppp/2n1bn2/3p4/3P4/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 4 9",
        ];
        let (mut data, mut mirror) = (Dataset::default(), Dataset::default());
        for fen in fens {
            data.push(&Position::from_fen(fen).unwrap(), 0.7, false);
            mirror.push(&Position::from_fen(&fen_mirrored_left_right(fen)).unwrap(), 0.7, false);
        }
        assert_eq!(data.mirrorable, [true, true, true, false], "castling rights are not mirrored");
        for (i, fen) in fens.iter().enumerate().take(3) {
            let mut flipped: Vec<u16> = data.inputs(i).iter().map(|&f| mirror_file(f)).collect();
            let mut want = mirror.inputs(i).to_vec();
            flipped.sort_unstable();
            want.sort_unstable();
            assert_eq!(flipped, want, "{fen}");
        }
        // Under a salt, a position is seen either as it is or exactly as its mirror.
        let net = FloatNetwork::random(5);
        let one = |d: &Dataset, i: u32, salt| {
            let mut g = Grad::new(&net);
            accumulate(&net, d, &[i], salt, &mut g);
            g.loss
        };
        for salt in 1..40u64 {
            for i in 0..3 {
                let want =
                    if mirrored(&data, i as usize, Some(salt)) { one(&mirror, i, None) } else { one(&data, i, None) };
                assert!((one(&data, i, Some(salt)) - want).abs() < 1e-9, "salt {salt}, position {i}");
            }
            assert!(!mirrored(&data, 3, Some(salt)));
        }
        // About half the positions are mirrored for a salt, and a position's side changes with the salt.
        let mut many = Dataset::default();
        many.mirrorable = vec![true; 10_000];
        let count = |salt| (0..10_000).filter(|&i| mirrored(&many, i, Some(salt))).count();
        assert!((4_700..5_300).contains(&count(11)), "{}", count(11));
        let changed = (0..10_000).filter(|&i| mirrored(&many, i, Some(11)) != mirrored(&many, i, Some(12))).count();
        assert!((4_000..6_000).contains(&changed), "{changed}");
        assert_eq!((0..10_000).filter(|&i| mirrored(&many, i, None)).count(), 0);
    }

    #[test]
    fn a_network_survives_the_trip_to_float_and_back() {
        let net = Network::builtin();
        let back = FloatNetwork::from_network(&net).quantise();
        assert!(back.to_bytes() == net.to_bytes(), "dequantised network quantises to something else");
        let trained = FloatNetwork::random(3).quantise();
        assert!(FloatNetwork::from_network(&trained).quantise().to_bytes() == trained.to_bytes());
    }

    #[test]
    fn dead_units_are_revived_without_changing_the_output() {
        let data = tiny_data();
        let mut net = FloatNetwork::from_network(&Network::builtin());
        // Units from 40 on die, as a 40-unit network's missing units are when it is read.
        for j in 40..HIDDEN {
            (0..INPUTS).for_each(|i| net.ft_w[i * HIDDEN + j] = 0.0);
            net.ft_b[j] = 0.0;
            (0..2 * BUCKETS).for_each(|k| net.out_w[k * HIDDEN + j] = 0.0);
        }
        let mut acc = vec![0.0; 2 * HIDDEN];
        let before: Vec<f32> =
            (0..data.len()).map(|i| net.forward(data.inputs(i), data.white_to_move[i], &mut acc)).collect();
        let mut revived = net.clone();
        assert_eq!(revived.revive_dead_units(9), HIDDEN - 40);
        assert!((40..HIDDEN).all(|j| revived.ft_w[3 * HIDDEN + j] != 0.0 || revived.ft_w[700 * HIDDEN + j] != 0.0));
        for (i, &y) in before.iter().enumerate() {
            assert_eq!(revived.forward(data.inputs(i), data.white_to_move[i], &mut acc), y, "position {i}");
        }
        // Live units are left alone, and reviving twice does nothing more.
        assert_eq!(revived.revive_dead_units(9), 0);
        assert_eq!(FloatNetwork::random(4).revive_dead_units(9), 0);
    }

    #[test]
    fn training_reduces_loss_and_quantised_net_agrees_with_float() {
        let data = tiny_data();
        let cfg =
            TrainConfig { epochs: 200, batch: 4, lr: 0.01, threads: 1, seed: 1, mirror_files: false, bucket_lr: 1.0 };
        let mut tr = Trainer::new(FloatNetwork::random(cfg.seed));
        let before = tr.loss(&data, 1);
        for e in 0..cfg.epochs {
            tr.epoch(&data, &cfg, Trainer::lr_at(&cfg, e), e as u64 + 1);
        }
        let after = tr.loss(&data, 1);
        assert!(after < before * 0.5, "loss {before} -> {after}");
        let q = tr.net.quantise();
        let q = Network::from_bytes(&q.to_bytes()).unwrap();
        // The integer inference must compute what the quantised weights stand for (up to the
        // rounding of its divisions), and those must stay near the float weights: rounding
        // 1,536 output weights of a bucket to 1/64 moves the output by up to a few tens of
        // centipawns on a large value, and by about ten near zero.
        let dequantised = FloatNetwork::from_network(&q);
        let mut acc = vec![0.0; 2 * HIDDEN];
        for (i, (fen, _)) in FENS.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            let float_cp = tr.net.forward(data.inputs(i), data.white_to_move[i], &mut acc) * SCALE as f32;
            let exact_cp = dequantised.forward(data.inputs(i), data.white_to_move[i], &mut acc) * SCALE as f32;
            let int_cp = q.evaluate(&pos) as f32;
            assert!((exact_cp - int_cp).abs() <= 1.0, "{fen}: dequantised {exact_cp} vs integer {int_cp}");
            assert!(
                (float_cp - int_cp).abs() <= 16.0 + 0.02 * float_cp.abs(),
                "{fen}: float {float_cp} vs quantised {int_cp}"
            );
        }
    }
}
