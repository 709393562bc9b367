//! Training the network: data loading, search-score labelling, and minibatch Adam
//! in floating point on the CPU, then quantisation to a [`Network`].
//!
//! Data lines are `fen,result,game[,score]`: the tuner's self-play files
//! (`bastion tune --generate`), optionally with a fourth column, White's search score
//! in centipawns, added by [`label_file`]. The target of a position is
//! `λ·σ(score/K) + (1−λ)·result` (just the result without a score), and the loss is
//! the squared error between that and `σ(output/K)` — a win-probability fit as in
//! the Texel tuner, with `K` the centipawn scale of its logistic.

use super::{bucket, relative, white_features, KingLayout, Network, BUCKETS, HIDDEN, INPUTS, QA, QB, SCALE};
use crate::search::{Engine, Limits};
use crate::{EngineOptions, Score};
use bastion_core::{Color, Position};
use std::io::{BufRead, Write};
use std::path::Path;

/// Centipawns per unit of the win-probability logistic (fitted to the self-play data
/// by the Texel tuner: K = 2.63 on a 400 cp scale).
pub const WDL_CP: f32 = 152.0;
/// Largest |label| in centipawns: search scores are clamped to it and mates written as it.
pub const LABEL_CP_MAX: i32 = 3000;
/// Largest |output weight| (keeps the quantised dot product inside i16 products).
const OUT_CLIP: f32 = 127.0 / QB as f32;
/// Largest |input weight or bias| (keeps accumulators far from i16 overflow).
const FT_CLIP: f32 = 32767.0 / QA as f32 / 32.0;

/// Training positions in compact form.
#[derive(Default)]
pub struct Dataset {
    /// White-perspective input indices of every position, back to back.
    feats: Vec<u16>,
    /// `feats[ends[i-1]..ends[i]]` are position `i`'s inputs.
    ends: Vec<u32>,
    /// Side to move is White.
    white_to_move: Vec<bool>,
    /// No castling rights: the position mirrored left to right is as good a training example
    /// (the inputs cannot show castling rights, but a mirrored right would be a different game).
    mirrorable: Vec<bool>,
    /// Target win probability for the side to move.
    target: Vec<f32>,
    /// Squared error of the hand-written evaluation against the targets, summed.
    reference_sq_error: f64,
}

impl Dataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Mean squared error of the hand-written evaluation on these positions (for comparison
    /// with [`Trainer::loss`]; computed only for validation sets).
    pub fn reference_loss(&self) -> f64 {
        self.reference_sq_error / self.len().max(1) as f64
    }

    fn push(&mut self, pos: &Position, white_target: f32, reference: bool) {
        self.feats.extend(white_features(pos).map(|f| f as u16));
        self.ends.push(self.feats.len() as u32);
        let white = pos.side_to_move() == Color::White;
        self.white_to_move.push(white);
        self.mirrorable.push(pos.castling().is_empty());
        let target = if white { white_target } else { 1.0 - white_target };
        self.target.push(target);
        if reference {
            let hce = crate::eval::evaluate(pos, &mut crate::eval::PawnCache::new()) as f32;
            self.reference_sq_error += ((sigmoid(hce / WDL_CP) - target) as f64).powi(2);
        }
    }

    fn inputs(&self, i: usize) -> &[u16] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.feats[start..self.ends[i] as usize]
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Parses one data line into a position and White's target; `None` for a bad line.
fn parse_line(line: &str, lambda: f32) -> Option<(Position, f32)> {
    let mut parts = line.split(',');
    let pos = Position::from_fen(parts.next()?.trim()).ok()?;
    let result = match parts.next()?.trim() {
        "" => None,
        r => Some(r.parse::<f32>().ok().filter(|r| (0.0..=1.0).contains(r))?),
    };
    let _game = parts.next();
    let score = match parts.next() {
        Some(s) => Some(s.trim().parse::<f32>().ok()?),
        None => None,
    };
    let target = match (score, result) {
        (Some(score), Some(result)) => lambda * sigmoid(score / WDL_CP) + (1.0 - lambda) * result,
        (Some(score), None) => sigmoid(score / WDL_CP),
        (None, Some(result)) => result,
        (None, None) => return None,
    };
    Some((pos, target))
}

/// Reads a data file into a training and a validation set (every `val_every`-th
/// line goes to validation; 0 = none). Returns the sets and the number of bad lines.
pub fn load(path: &Path, lambda: f32, val_every: usize) -> std::io::Result<(Dataset, Dataset, usize)> {
    let f = std::io::BufReader::new(std::fs::File::open(path)?);
    let (mut train, mut val, mut bad) = (Dataset::default(), Dataset::default(), 0);
    for (i, line) in f.lines().enumerate() {
        let line = line?;
        // Empty lines are positions the labeller rejected (see `label_file`).
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(&line, lambda) {
            Some((pos, t)) if val_every > 0 && i % val_every == val_every - 1 => val.push(&pos, t, true),
            Some((pos, t)) => train.push(&pos, t, false),
            None => bad += 1,
        }
    }
    Ok((train, val, bad))
}

/// Settings of [`label_file`].
#[derive(Clone, Copy, Debug)]
pub struct LabelConfig {
    /// Search depth of each label.
    pub depth: i32,
    /// Random legal moves (1 to this many) played before labelling; 0 labels as is.
    pub random_plies: usize,
    /// Seed for the random moves.
    pub seed: u64,
    /// Engines searching in parallel.
    pub threads: usize,
}

/// Labels a data file with search scores: copies `input` to `output` with White's
/// score from a `cfg.depth`-ply search appended to every line, using `cfg.threads` engines.
///
/// With `cfg.random_plies` > 0 each position is first moved on by 1 to `random_plies`
/// random legal moves (seeded by `cfg.seed` and the line number), so that the network
/// also sees the unbalanced positions a search visits; such a line has no game result
/// (`fen,,game,score`), and a position in check or whose best move is a capture or
/// promotion is rejected and written as an empty line. Output line `i` always
/// belongs to input line `i`.
///
/// Resumable: lines already in `output` are skipped (a partial last line is dropped).
/// `progress(done, total)` is called after every block; `stop()` ends the run early
/// at a block boundary. Returns the number of lines written by this call.
pub fn label_file(
    input: &Path,
    output: &Path,
    cfg: &LabelConfig,
    progress: &mut dyn FnMut(usize, usize),
    stop: &dyn Fn() -> bool,
) -> std::io::Result<usize> {
    let lines: Vec<String> = std::io::BufReader::new(std::fs::File::open(input)?).lines().collect::<Result<_, _>>()?;
    let done = match std::fs::read(output) {
        Ok(bytes) => {
            let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            std::fs::OpenOptions::new().write(true).open(output)?.set_len(complete as u64)?;
            bytes[..complete].iter().filter(|&&b| b == b'\n').count()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(e),
    };
    let mut out = std::io::BufWriter::new(std::fs::OpenOptions::new().create(true).append(true).open(output)?);
    let LabelConfig { depth, random_plies, seed, threads } = *cfg;
    let threads = threads.max(1);
    let mut engines: Vec<Engine> =
        (0..threads).map(|_| Engine::new(EngineOptions { hash_mb: 2, ..EngineOptions::default() })).collect();
    let mut written = 0;
    const BLOCK: usize = 4096;
    let mut at = done.min(lines.len());
    while at < lines.len() && !stop() {
        let block = &lines[at..(at + BLOCK).min(lines.len())];
        let per = block.len().div_ceil(threads);
        let first = at;
        let labels: Vec<Vec<String>> = std::thread::scope(|s| {
            let handles: Vec<_> = engines
                .iter_mut()
                .zip(block.chunks(per))
                .enumerate()
                .map(|(k, (engine, chunk))| {
                    s.spawn(move || {
                        let n0 = first + k * per;
                        chunk
                            .iter()
                            .enumerate()
                            .map(|(j, l)| {
                                let rng = seed ^ ((n0 + j) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                                label_line(engine, l, depth, random_plies, rng)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("labelling thread")).collect()
        });
        for line in labels.into_iter().flatten() {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        written += block.len();
        at += block.len();
        progress(at, lines.len());
    }
    Ok(written)
}

/// The output line for one input line (see [`label_file`]).
fn label_line(engine: &mut Engine, line: &str, depth: i32, random_plies: usize, mut rng: u64) -> String {
    let line = line.trim_end();
    let mut parts = line.split(',');
    let Some(Ok(mut pos)) = parts.next().map(|f| Position::from_fen(f.trim())) else {
        // Unreadable lines are kept as they are so that line numbers stay aligned.
        return line.to_string();
    };
    if random_plies > 0 {
        let mut next = || super::xorshift(&mut rng);
        for _ in 0..1 + next() as usize % random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return String::new();
            }
            pos = pos.play(moves[(next() % moves.len() as u64) as usize]);
        }
        if pos.in_check() {
            return String::new();
        }
    }
    if !pos.has_legal_moves() {
        return if random_plies > 0 { String::new() } else { line.to_string() };
    }
    // Each label is a function of its line alone (not of the lines this engine searched
    // before), so a resumed run redoes a cut-off line exactly.
    engine.clear();
    let r = engine.search(&pos, &[], &Limits::depth(depth), &mut |_| {});
    let cp = match r.score {
        Score::Cp(v) => v.clamp(-LABEL_CP_MAX, LABEL_CP_MAX),
        Score::Mate(n) if n > 0 => LABEL_CP_MAX,
        Score::Mate(_) => -LABEL_CP_MAX,
    };
    let white_cp = if pos.side_to_move() == Color::White { cp } else { -cp };
    if random_plies == 0 {
        return format!("{line},{white_cp}");
    }
    if r.best.is_none_or(|m| crate::tune::is_noisy(&pos, m)) || cp.abs() >= LABEL_CP_MAX {
        return String::new();
    }
    let game = parts.nth(1).unwrap_or("").trim();
    format!("{},,{game},{white_cp}", pos.fen())
}

/// Network weights in floating point (the trainer's copy).
///
/// With king buckets, the input weights are factorised: the row of input `f` in bucket `b` is
/// `ft_w[b][f] + ft_f[f]`, so what every bucket has in common is learnt from all positions and
/// a bucket's own rows only learn how it differs. [`FloatNetwork::merged`] folds the factor in.
#[derive(Clone)]
pub struct FloatNetwork {
    kings: KingLayout,
    /// `kings.count() · INPUTS` rows of `HIDDEN`.
    ft_w: Vec<f32>,
    /// The factor: `INPUTS` rows of `HIDDEN` shared by every king bucket; empty when there is
    /// one bucket (or once merged).
    ft_f: Vec<f32>,
    ft_b: Vec<f32>,
    /// `BUCKETS` blocks of `2 * HIDDEN` (side to move's units, then the other side's).
    out_w: Vec<f32>,
    /// One bias per bucket.
    out_b: Vec<f32>,
}

/// A uniform random number in `-scale..scale` from the generator state `s`.
fn uniform(s: &mut u64, scale: f32) -> f32 {
    ((super::xorshift(s) >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0) * scale
}

/// Weights in the output layer per bucket.
const OUT: usize = 2 * HIDDEN;

impl FloatNetwork {
    /// Small random weights from `seed`, without king buckets.
    pub fn random(seed: u64) -> FloatNetwork {
        FloatNetwork::random_with(seed, KingLayout::NONE)
    }

    /// Small random weights from `seed` for `kings`: with king buckets the factor starts
    /// random and the buckets' own rows at zero, so every bucket starts as the same network.
    pub fn random_with(seed: u64, kings: KingLayout) -> FloatNetwork {
        let mut s = seed | 1;
        let mut rnd = move |scale: f32| uniform(&mut s, scale);
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
        let mut s = seed | 1;
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
                (0..rows).for_each(|i| target[i * HIDDEN + j] = uniform(&mut s, scale));
                self.ft_b[j] = uniform(&mut s, scale);
                revived += 1;
            }
        }
        revived
    }

    /// All weights zero in the shape of `like` (gradient sums and Adam moments start here).
    fn zeros_like(like: &FloatNetwork) -> FloatNetwork {
        FloatNetwork {
            kings: like.kings,
            ft_w: vec![0.0; like.ft_w.len()],
            ft_f: vec![0.0; like.ft_f.len()],
            ft_b: vec![0.0; HIDDEN],
            out_w: vec![0.0; BUCKETS * OUT],
            out_b: vec![0.0; BUCKETS],
        }
    }

    fn params(&mut self) -> [&mut [f32]; 5] {
        [&mut self.ft_w, &mut self.ft_b, &mut self.out_w, &mut self.out_b, &mut self.ft_f]
    }

    /// Forward pass for one position on a network without a factor (plain, or
    /// [`FloatNetwork::merged`]): fills `acc` (both perspectives, side to move first) and returns
    /// the output in units of `SCALE` centipawns. The output bucket is the number of inputs (pieces).
    fn forward(&self, inputs: &[u16], white: bool, acc: &mut [f32]) -> f32 {
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
        write_atomically(path, &bytes)
    }

    /// Reads a checkpoint written by [`FloatNetwork::save`].
    pub fn load(path: &Path) -> std::io::Result<FloatNetwork> {
        let bytes = std::fs::read(path)?;
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

/// Writes `bytes` to `path` through a temporary file, so an interrupted write never
/// leaves a truncated file behind.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("partial");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

#[inline(always)]
fn add_row(a: &mut [f32], w: &[f32]) {
    a.iter_mut().zip(w).for_each(|(x, y)| *x += y);
}

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
/// ([`mirrored`]).
fn accumulate(net: &FloatNetwork, data: &Dataset, idx: &[u32], salt: Option<u64>, g: &mut Grad) {
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
        let mut s = shuffle_seed | 1;
        for i in (1..idx.len()).rev() {
            idx.swap(i, (super::xorshift(&mut s) % (i as u64 + 1)) as usize);
        }
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

    const FENS: [(&str, f32); 4] = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0.5),
        ("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1.0),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1", 0.0),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0.8),
    ];

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
        let mut s = 99u64;
        tr.net.ft_w.iter_mut().for_each(|w| *w = uniform(&mut s, 0.05));
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
        let dir = std::env::temp_dir().join(format!("bastion-kings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("k.ckpt");
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
        std::fs::remove_dir_all(&dir).ok();
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
        let many = Dataset { mirrorable: vec![true; 10_000], ..Dataset::default() };
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
        // hundreds of output weights to 1/64 moves the output by several centipawns.
        let dequantised = FloatNetwork::from_network(&q);
        let mut acc = vec![0.0; 2 * HIDDEN];
        for (i, (fen, _)) in FENS.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            let float_cp = tr.net.forward(data.inputs(i), data.white_to_move[i], &mut acc) * SCALE as f32;
            let exact_cp = dequantised.forward(data.inputs(i), data.white_to_move[i], &mut acc) * SCALE as f32;
            let int_cp = q.evaluate(&pos) as f32;
            assert!((exact_cp - int_cp).abs() <= 1.0, "{fen}: dequantised {exact_cp} vs integer {int_cp}");
            assert!(
                (float_cp - int_cp).abs() <= 8.0 + 0.02 * float_cp.abs(),
                "{fen}: float {float_cp} vs quantised {int_cp}"
            );
        }
    }

    #[test]
    fn labelling_is_aligned_resumable_and_loadable() {
        let dir = std::env::temp_dir().join(format!("bastion-label-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("in.csv");
        let lines = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3,1,4",
            "not a fen,0.5,4",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1,0,5",
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,1,6",
        ];
        std::fs::write(&input, lines.join("\n") + "\n").unwrap();
        let cfg = LabelConfig { depth: 3, random_plies: 0, seed: 1, threads: 2 };
        let out = dir.join("out.csv");
        assert_eq!(label_file(&input, &out, &cfg, &mut |_, _| {}, &|| false).unwrap(), 4);
        let text = std::fs::read_to_string(&out).unwrap();
        let got: Vec<&str> = text.lines().collect();
        assert_eq!(got.len(), 4);
        assert_eq!(got[1], lines[1]);
        for (g, l) in got.iter().zip(&lines) {
            assert!(g.starts_with(l));
        }
        // White is a queen up in the last line and a queen down (Black to move) in the third:
        // scores are White's.
        let score = |l: &str| l.rsplit(',').next().unwrap().parse::<i32>().unwrap();
        assert!(score(got[3]) > 500 && score(got[2]) < -500, "{got:?}");
        // A second run finds everything done; a cut-off last line is redone.
        assert_eq!(label_file(&input, &out, &cfg, &mut |_, _| {}, &|| false).unwrap(), 0);
        std::fs::write(&out, &text[..text.len() - 3]).unwrap();
        assert_eq!(label_file(&input, &out, &cfg, &mut |_, _| {}, &|| false).unwrap(), 1);
        assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
        // Moved-on positions: one output line per input line, empty or `fen,,game,score`.
        let moved = dir.join("moved.csv");
        let cfg = LabelConfig { random_plies: 3, ..cfg };
        label_file(&input, &moved, &cfg, &mut |_, _| {}, &|| false).unwrap();
        let text = std::fs::read_to_string(&moved).unwrap();
        assert_eq!(text.lines().count(), 4);
        for l in text.lines().filter(|l| !l.is_empty() && !l.starts_with("not a fen")) {
            let f: Vec<&str> = l.split(',').collect();
            assert!(Position::from_fen(f[0]).is_ok() && f[1].is_empty() && f[3].parse::<i32>().is_ok(), "{l}");
        }
        let (train, val, bad) = load(&out, 0.75, 0).unwrap();
        assert_eq!((train.len(), val.len(), bad), (3, 0, 1));
        std::fs::remove_dir_all(&dir).ok();
    }
}
