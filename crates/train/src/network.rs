//! The network's weights in floating point, as the trainer fits them: random starting
//! weights, conversion from and to the engine's quantised [`Network`], and checkpoints.

use bastion_core::io::write_atomically;
use bastion_core::rng::Rng;
use bastion_engine::nnue::{bucket, relative, KingLayout, Network, BUCKETS, HIDDEN, INPUTS, MAX_KING_BUCKETS, QA, QB};
use std::path::Path;

/// Network weights in floating point (the trainer's copy).
///
/// With king buckets, the input weights are factorised: the row of input `f` in bucket `b` is
/// `ft_w[b][f] + ft_f[f]`, so what every bucket has in common is learnt from all positions and
/// a bucket's own rows only learn how it differs. [`FloatNetwork::merged`] folds the factor in.
#[derive(Clone)]
pub struct FloatNetwork {
    pub(crate) kings: KingLayout,
    /// `kings.count() · INPUTS` rows of `HIDDEN`.
    pub(crate) ft_w: Vec<f32>,
    /// The factor: `INPUTS` rows of `HIDDEN` shared by every king bucket; empty when there is
    /// one bucket (or once merged).
    pub(crate) ft_f: Vec<f32>,
    pub(crate) ft_b: Vec<f32>,
    /// `BUCKETS` blocks of `2 * HIDDEN` (side to move's units, then the other side's).
    pub(crate) out_w: Vec<f32>,
    /// One bias per bucket.
    pub(crate) out_b: Vec<f32>,
}

/// Weights in the output layer per bucket.
pub(crate) const OUT: usize = 2 * HIDDEN;

impl FloatNetwork {
    /// The size of the largest checkpoint (all king buckets and the shared factor): a
    /// bound on what [`FloatNetwork::load`] reads.
    pub const MAX_CHECKPOINT_BYTES: u64 =
        (8 + 68 + 4 * ((MAX_KING_BUCKETS + 1) * INPUTS * HIDDEN + HIDDEN + BUCKETS * OUT + BUCKETS)) as u64;

    /// Small random weights from `seed`, without king buckets.
    pub fn random(seed: u64) -> FloatNetwork {
        FloatNetwork::random_with(seed, KingLayout::NONE)
    }

    /// Small random weights from `seed` for `kings`: with king buckets the factor starts
    /// random and the buckets' own rows at zero, so every bucket starts as the same network.
    pub fn random_with(seed: u64, kings: KingLayout) -> FloatNetwork {
        let mut rng = Rng::new(seed);
        let mut rnd = move |scale: f32| rng.symmetric(scale);
        let ft = 1.0 / (INPUTS as f32).sqrt();
        let out = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        let shared: Vec<f32> = (0..INPUTS * HIDDEN).map(|_| rnd(ft)).collect();
        let ft_b = (0..HIDDEN).map(|_| rnd(ft)).collect();
        let out_w = (0..BUCKETS * OUT).map(|_| rnd(out)).collect();
        let net = FloatNetwork {
            kings: KingLayout::NONE,
            ft_w: shared,
            ft_f: vec![],
            ft_b,
            out_w,
            out_b: vec![0.0; BUCKETS],
        };
        net.with_king_layout(kings)
    }

    /// This network without king buckets spread over `kings`' buckets: its input rows become
    /// the factor and every bucket's own rows start at zero, so it starts out evaluating as
    /// before (on the mirrored board where `kings` mirrors files). A network that already has
    /// king buckets, or `kings` = [`KingLayout::NONE`], is returned as it is.
    pub fn with_king_layout(self, kings: KingLayout) -> FloatNetwork {
        if self.kings != KingLayout::NONE {
            return self;
        }
        if kings.count() == 1 {
            return FloatNetwork { kings, ..self };
        }
        FloatNetwork { kings, ft_w: vec![0.0; kings.count() * INPUTS * HIDDEN], ft_f: self.ft_w, ..self }
    }

    /// The king layout.
    pub fn king_layout(&self) -> KingLayout {
        self.kings
    }

    /// The floating-point weights a quantised network stands for, so that training can
    /// continue from a finished network (fine-tuning) when its checkpoint is gone.
    /// Quantising the result gives `net` back exactly.
    pub fn from_network(net: &Network) -> FloatNetwork {
        let f = |v: &[i16], s: i32| v.iter().map(|&q| q as f32 / s as f32).collect::<Vec<f32>>();
        FloatNetwork {
            kings: net.kings,
            ft_w: net.ft_w.iter().flat_map(|row| f(row, QA)).collect(),
            ft_f: if net.kings.count() > 1 { vec![0.0; INPUTS * HIDDEN] } else { vec![] },
            ft_b: f(&net.ft_b, QA),
            out_w: net.out_w.iter().flatten().flat_map(|row| f(row, QB)).collect(),
            out_b: net.out_b.iter().map(|&b| b as f32 / (QA * QB) as f32).collect(),
        }
    }

    /// The same network with the factor folded into every bucket's rows (what inference uses).
    pub fn merged(&self) -> std::borrow::Cow<'_, FloatNetwork> {
        if self.ft_f.is_empty() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut ft_w = self.ft_w.clone();
        for block in ft_w.chunks_exact_mut(INPUTS * HIDDEN) {
            add_row(block, &self.ft_f);
        }
        std::borrow::Cow::Owned(FloatNetwork {
            kings: self.kings,
            ft_w,
            ft_f: vec![],
            ft_b: self.ft_b.clone(),
            out_w: self.out_w.clone(),
            out_b: self.out_b.clone(),
        })
    }

    /// Gives every dead hidden unit (all its weights zero, as the units a narrower network
    /// lacks are when it is read) small random input weights from `seed`, so that training
    /// can use it. Its output weights stay zero, so the network's output is unchanged.
    /// Returns how many units were revived.
    pub fn revive_dead_units(&mut self, seed: u64) -> usize {
        let mut rng = Rng::new(seed);
        let scale = 1.0 / (INPUTS as f32).sqrt();
        let mut revived = 0;
        // The rows a unit is revived in: the factor's when there is one, so every bucket gets them.
        let rows = if self.ft_f.is_empty() { self.ft_w.len() / HIDDEN } else { INPUTS };
        for j in 0..HIDDEN {
            let dead = self.ft_b[j] == 0.0
                && self.ft_w.chunks_exact(HIDDEN).all(|r| r[j] == 0.0)
                && self.ft_f.chunks_exact(HIDDEN).all(|r| r[j] == 0.0)
                && (0..2 * BUCKETS).all(|k| self.out_w[k * HIDDEN + j] == 0.0);
            if dead {
                let target = if self.ft_f.is_empty() { &mut self.ft_w } else { &mut self.ft_f };
                (0..rows).for_each(|i| target[i * HIDDEN + j] = rng.symmetric(scale));
                self.ft_b[j] = rng.symmetric(scale);
                revived += 1;
            }
        }
        revived
    }

    /// All weights zero in the shape of `like` (gradient sums and Adam moments start here).
    pub(crate) fn zeros_like(like: &FloatNetwork) -> FloatNetwork {
        FloatNetwork {
            kings: like.kings,
            ft_w: vec![0.0; like.ft_w.len()],
            ft_f: vec![0.0; like.ft_f.len()],
            ft_b: vec![0.0; HIDDEN],
            out_w: vec![0.0; BUCKETS * OUT],
            out_b: vec![0.0; BUCKETS],
        }
    }

    /// Every weight block, in a fixed order: input rows, hidden biases, output weights, output
    /// biases, factor rows.
    pub(crate) fn params(&mut self) -> [&mut [f32]; 5] {
        [&mut self.ft_w, &mut self.ft_b, &mut self.out_w, &mut self.out_b, &mut self.ft_f]
    }

    /// Forward pass for one position on a network without a factor (plain, or
    /// [`FloatNetwork::merged`]): fills `acc` (both perspectives, side to move first) and returns
    /// the output in units of `SCALE` centipawns. The output bucket is the number of inputs (pieces).
    #[inline(always)]
    pub(crate) fn forward(&self, inputs: &[u16], white: bool, acc: &mut [f32]) -> f32 {
        debug_assert!(self.ft_f.is_empty(), "forward needs the merged network");
        let (us, them) = acc.split_at_mut(HIDDEN);
        us.copy_from_slice(&self.ft_b);
        them.copy_from_slice(&self.ft_b);
        let views = self.kings.views_of(inputs.iter().map(|&f| f as usize));
        let (pu, pt) = if white { (0, 1) } else { (1, 0) };
        for &f in inputs {
            let (fu, ft) = (views[pu].row(relative(pu, f as usize)), views[pt].row(relative(pt, f as usize)));
            add_row(us, &self.ft_w[fu * HIDDEN..(fu + 1) * HIDDEN]);
            add_row(them, &self.ft_w[ft * HIDDEN..(ft + 1) * HIDDEN]);
        }
        let b = bucket(inputs.len() as u32);
        let mut y = self.out_b[b];
        for (a, w) in acc.iter().zip(&self.out_w[b * OUT..(b + 1) * OUT]) {
            let c = a.clamp(0.0, 1.0);
            y += c * c * w;
        }
        y
    }

    /// The quantised network for inference.
    pub fn quantise(&self) -> Network {
        let net = self.merged();
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let row = |v: &[f32], s: i32| {
            let mut r = [0i16; HIDDEN];
            r.iter_mut().zip(v).for_each(|(o, &x)| *o = q(x, s));
            r
        };
        Network {
            kings: net.kings,
            ft_w: net.ft_w.chunks_exact(HIDDEN).map(|c| row(c, QA)).collect(),
            ft_b: row(&net.ft_b, QA),
            out_w: std::array::from_fn(|b| {
                let w = &net.out_w[b * OUT..(b + 1) * OUT];
                [row(&w[..HIDDEN], QB), row(&w[HIDDEN..], QB)]
            }),
            out_b: std::array::from_fn(|b| (net.out_b[b] * (QA * QB) as f32).round() as i32),
        }
    }

    /// Saves the floating-point weights (a training checkpoint).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(4 * (self.ft_w.len() + self.ft_f.len() + HIDDEN + BUCKETS * (OUT + 1)) + 76);
        if self.kings == KingLayout::NONE {
            bytes.extend_from_slice(CHECKPOINT_MAGIC);
        } else {
            bytes.extend_from_slice(CHECKPOINT_MAGIC_KINGS);
            bytes.extend_from_slice(&self.kings.to_bytes());
        }
        for x in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w).chain(&self.out_b).chain(&self.ft_f) {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        write_atomically(path, "partial", &bytes)
    }

    /// Reads a checkpoint written by [`FloatNetwork::save`].
    pub fn load(path: &Path) -> std::io::Result<FloatNetwork> {
        let bytes = bastion_core::io::read_bounded(path, FloatNetwork::MAX_CHECKPOINT_BYTES)?;
        let invalid = || std::io::Error::new(std::io::ErrorKind::InvalidData, "not a checkpoint of this network shape");
        let (kings, body) = match bytes.get(..8) {
            Some(m) if m == CHECKPOINT_MAGIC => (KingLayout::NONE, &bytes[8..]),
            Some(m) if m == CHECKPOINT_MAGIC_KINGS && bytes.len() >= 8 + 68 => {
                (KingLayout::from_bytes(&bytes[8..76]).map_err(|_| invalid())?, &bytes[76..])
            }
            _ => return Err(invalid()),
        };
        let rows = kings.count() * INPUTS;
        let factor = if kings.count() > 1 { INPUTS * HIDDEN } else { 0 };
        if body.len() != 4 * (rows * HIDDEN + HIDDEN + BUCKETS * (OUT + 1) + factor) {
            return Err(invalid());
        }
        let v: Vec<f32> = body.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let (ft_w, rest) = v.split_at(rows * HIDDEN);
        let (ft_b, rest) = rest.split_at(HIDDEN);
        let (out_w, rest) = rest.split_at(BUCKETS * OUT);
        let (out_b, ft_f) = rest.split_at(BUCKETS);
        Ok(FloatNetwork {
            kings,
            ft_w: ft_w.to_vec(),
            ft_f: ft_f.to_vec(),
            ft_b: ft_b.to_vec(),
            out_w: out_w.to_vec(),
            out_b: out_b.to_vec(),
        })
    }
}

/// Checkpoint magic; the last byte is the version (2: output buckets).
const CHECKPOINT_MAGIC: &[u8; 8] = b"BSTF32\0\x02";
/// Checkpoint magic with king buckets (version 3): the layout's 68 bytes follow, and the factor
/// rows come last.
const CHECKPOINT_MAGIC_KINGS: &[u8; 8] = b"BSTF32\0\x03";

/// Adds `w` to `a` element by element.
#[inline(always)]
pub(crate) fn add_row(a: &mut [f32], w: &[f32]) {
    a.iter_mut().zip(w).for_each(|(x, y)| *x += y);
}
