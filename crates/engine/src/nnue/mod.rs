//! A neural evaluation in the NNUE style: 768 piece-square inputs per perspective,
//! optionally one block of them per king bucket ([`KingLayout`]), one hidden layer of
//! [`HIDDEN`] units shared by both perspectives, squared clipped ReLU, and one output
//! chosen by the number of pieces on the board ([`BUCKETS`]).
//!
//! The input layer is a sum of weight rows, one per piece on the board, so it is kept
//! up to date incrementally as the search moves ([`AccumulatorStack`]). Inference is
//! integer arithmetic on a quantised copy of the weights the trainer (the `bastion-train`
//! crate) fits in floating point; the file format is in `docs/nnue-format.md`.

mod builtin;
mod stack;

pub use builtin::BUILTIN_NAME;
pub use stack::AccumulatorStack;

use bastion_core::{Color, Position, Role};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Inputs per perspective and king bucket: 2 colours (own, other) × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Most king buckets a network file may have.
pub const MAX_KING_BUCKETS: usize = 32;
/// Hidden units per perspective.
pub const HIDDEN: usize = 768;
/// Quantisation of the input layer (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;
/// Output buckets: each has its own output weights and bias, chosen by [`bucket`].
pub const BUCKETS: usize = 8;
/// File magic of the current version without king buckets (output buckets).
const MAGIC: &[u8; 8] = b"BSTNNUE2";
/// File magic of the version with king buckets: a [`KingLayout`] follows the shape.
const MAGIC_KINGS: &[u8; 8] = b"BSTNNUE3";
/// File magic of the first version (one output), still read: its output is copied to
/// every bucket, which evaluates exactly as before.
const MAGIC_V1: &[u8; 8] = b"BSTNNUE1";

/// The output bucket of a position with `pieces` pieces on the board (kings included):
/// 2–5 pieces use bucket 0, …, 30–32 bucket 7, so the endgame gets output weights of its own.
#[inline(always)]
pub fn bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(BUCKETS - 1)
}

/// The input index of a piece of `color` and `role` on square index `sq`, seen from
/// `persp`: the perspective's own pieces come first and Black sees the board flipped.
#[inline(always)]
pub fn feature(persp: Color, color: Color, role: Role, sq: usize) -> usize {
    let (side, sq) = if persp == Color::White { (color.index(), sq) } else { (1 - color.index(), sq ^ 56) };
    side * 384 + role.index() * 64 + sq
}

/// Active inputs of `pos` from White's perspective (Black's are [`mirror`] of these).
pub fn white_features(pos: &Position) -> impl Iterator<Item = usize> + '_ {
    Color::ALL.into_iter().flat_map(move |c| {
        Role::ALL
            .into_iter()
            .flat_map(move |r| pos.pieces(c, r).into_iter().map(move |sq| feature(Color::White, c, r, sq.index())))
    })
}

/// The same input seen from the other perspective.
#[inline(always)]
pub fn mirror(f: usize) -> usize {
    let side = f / 384;
    (1 - side) * 384 + ((f % 384) ^ 56)
}

/// Which block of input weights a perspective uses, chosen by the square of its own king.
///
/// With `flip`, a perspective whose king stands on files e–h sees the board mirrored left to
/// right (its inputs and its king square), so the weights learn one wing and serve both. The
/// bucket table is indexed by the perspective's own king square (flipped vertically for Black,
/// then left to right if `flip` applies). [`KingLayout::NONE`] is the plain 768-input network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingLayout {
    bucket: [u8; 64],
    flip: bool,
}

/// Where a perspective's inputs start and how their squares are mirrored (see [`KingLayout`]);
/// the default is the first block, unmirrored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    offset: usize,
    xor: usize,
}

impl View {
    /// A small number per view (bucket and wing), for per-view caches.
    #[inline(always)]
    pub(crate) fn index(self) -> usize {
        self.offset / INPUTS * 2 + (self.xor != 0) as usize
    }

    /// The weight row of the perspective-relative input `f` (a [`feature`] index).
    #[inline(always)]
    pub fn row(self, f: usize) -> usize {
        // 384 and 64 are multiples of 8, so `^ 7` changes only the square's file.
        self.offset + (f ^ self.xor)
    }
}

impl KingLayout {
    /// One block of inputs whatever the king's square, no mirroring.
    pub const NONE: KingLayout = KingLayout { bucket: [0; 64], flip: false };

    /// Layouts by name, for the trainer's `--king-buckets`: `none`; `kings4` (buckets a1–c1,
    /// d1–e1, f1–h1, and the rest of the board; a network without buckets spreads over it
    /// exactly); and `mirror4` (files mirrored so the king is on a–d; buckets a1–b1, c1–d1, the
    /// second rank, and the rest).
    pub fn by_name(name: &str) -> Option<KingLayout> {
        match name {
            "none" => Some(KingLayout::NONE),
            "kings4" => Some(KingLayout::from_fn(false, |sq| match (sq / 8, sq % 8) {
                (0, 0..=2) => 0,
                (0, 3..=4) => 1,
                (0, _) => 2,
                _ => 3,
            })),
            "mirror4" => Some(KingLayout::from_fn(true, |sq| match (sq / 8, sq % 8) {
                (0, 0..=1) => 0,
                (0, _) => 1,
                (1, _) => 2,
                _ => 3,
            })),
            _ => None,
        }
    }

    /// The layout with bucket `f(square)` for each own-king square; with `flip`, only files
    /// a–d are ever looked up.
    pub fn from_fn(flip: bool, f: impl Fn(usize) -> u8) -> KingLayout {
        KingLayout { bucket: std::array::from_fn(f), flip }
    }

    /// Number of king buckets (blocks of [`INPUTS`] weight rows).
    pub fn count(&self) -> usize {
        self.bucket.iter().copied().max().unwrap_or(0) as usize + 1
    }

    /// The view of perspective `persp` whose king stands on `king` (a1 = 0, from White's side).
    #[inline(always)]
    pub fn view(&self, persp: Color, king: usize) -> View {
        let k = if persp == Color::White { king } else { king ^ 56 };
        let xor = if self.flip && k & 7 >= 4 { 7 } else { 0 };
        View { offset: self.bucket[k ^ xor] as usize * INPUTS, xor }
    }

    /// Both perspectives' views for a position given by its White-perspective inputs (the
    /// king inputs fix them; a missing king counts as standing on a1).
    pub fn views_of(&self, white_inputs: impl Iterator<Item = usize>) -> [View; 2] {
        let mut kings = [0; 2];
        for f in white_inputs {
            let (side, rest) = (f / 384, f % 384);
            if rest / 64 == Role::King.index() && side < 2 {
                kings[side] = rest % 64;
            }
        }
        self.views_for(kings)
    }

    /// Both perspectives' views in `pos`.
    pub fn views(&self, pos: &Position) -> [View; 2] {
        let king = |c: Color| pos.pieces(c, Role::King).into_iter().next().map_or(0, |sq| sq.index());
        self.views_for([king(Color::White), king(Color::Black)])
    }

    /// Both perspectives' views with White's king on `kings[0]` and Black's on `kings[1]`.
    #[inline(always)]
    pub fn views_for(&self, kings: [usize; 2]) -> [View; 2] {
        [self.view(Color::White, kings[0]), self.view(Color::Black, kings[1])]
    }

    /// The layout as stored in network files and training checkpoints: 64 bucket bytes, the
    /// mirroring flag and three zero bytes.
    pub fn to_bytes(self) -> [u8; 68] {
        let mut out = [0u8; 68];
        out[..64].copy_from_slice(&self.bucket);
        out[64] = self.flip as u8;
        out
    }

    /// Reads the 68 bytes [`KingLayout::to_bytes`] writes (at least that many; the rest is
    /// ignored); an error for bucket numbers or flags no layout has.
    pub fn from_bytes(bytes: &[u8]) -> Result<KingLayout, String> {
        let bucket: [u8; 64] = bytes[..64].try_into().expect("64 bytes");
        if bucket.iter().any(|&b| b as usize >= MAX_KING_BUCKETS) || bytes[64] > 1 || bytes[65..68] != [0; 3] {
            return Err("bad king layout".into());
        }
        Ok(KingLayout { bucket, flip: bytes[64] == 1 })
    }
}

/// The perspective-relative input of White-perspective input `f` for perspective `persp`
/// (0 White, 1 Black).
#[inline(always)]
pub fn relative(persp: usize, f: usize) -> usize {
    if persp == 0 {
        f
    } else {
        mirror(f)
    }
}

/// Why a network file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be read.
    #[error("cannot read network file: {0}")]
    Io(#[from] std::io::Error),
    /// The path is not a regular file, or the file is larger than any network.
    #[error("cannot read network file: {0}")]
    Refused(#[from] bastion_core::io::BoundedReadError),
    /// The file is not a network of this build's shape.
    #[error("not a Bastion network file ({0})")]
    Format(String),
}

/// Quantised network weights, ready for inference.
#[derive(Clone)]
pub struct Network {
    /// Which block of input rows each perspective uses.
    pub kings: KingLayout,
    /// Input weights, `kings.count() · INPUTS` rows of `HIDDEN` (block by block), scaled by `QA`.
    pub ft_w: Vec<[i16; HIDDEN]>,
    /// Hidden biases, scaled by `QA`.
    pub ft_b: [i16; HIDDEN],
    /// Output weights of each bucket: side to move's units, then the other side's; scaled by `QB`.
    pub out_w: [[[i16; HIDDEN]; 2]; BUCKETS],
    /// Output bias of each bucket, scaled by `QA * QB`.
    pub out_b: [i32; BUCKETS],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}x{INPUTS}->{HIDDEN}x2->1x{BUCKETS})", self.kings.count())
    }
}

/// The hidden layer of both perspectives, indexed by colour.
#[derive(Clone, Copy)]
pub struct Accumulator {
    /// Pre-activation values, scaled by `QA`.
    pub v: [[i16; HIDDEN]; 2],
}

impl Network {
    /// Reads a network from its file bytes (any version, any width up to [`HIDDEN`];
    /// see `docs/nnue-format.md`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let bad = |m: &str| NetworkError::Format(m.to_string());
        if bytes.len() < 16 {
            return Err(bad("bad magic"));
        }
        let (buckets, with_kings) = match &bytes[..8] {
            m if m == MAGIC_V1 => (1, false),
            m if m == MAGIC => (BUCKETS, false),
            m if m == MAGIC_KINGS => (BUCKETS, true),
            _ => return Err(bad("bad magic")),
        };
        let inputs = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        let hidden = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
        if inputs != INPUTS || hidden == 0 || hidden > HIDDEN {
            return Err(NetworkError::Format(format!(
                "shape {inputs}->{hidden}, this build reads {INPUTS}->{HIDDEN} or narrower"
            )));
        }
        let (kings, head) = if with_kings {
            if bytes.len() < 16 + 68 {
                return Err(bad("truncated king layout"));
            }
            (KingLayout::from_bytes(&bytes[16..16 + 68]).map_err(NetworkError::Format)?, 16 + 68)
        } else {
            (KingLayout::NONE, 16)
        };
        let rows = kings.count() * INPUTS;
        let weights = head + 2 * (rows * hidden + hidden + 2 * hidden * buckets);
        let want = weights + 4 * buckets;
        if bytes.len() != want {
            return Err(NetworkError::Format(format!("{} bytes, expected {want}", bytes.len())));
        }
        let mut words = bytes[head..weights].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        // A narrower network's missing units stay zero: they add nothing to the output,
        // so it evaluates exactly as it did, and training can grow into them.
        let mut row = || {
            let mut r = [0i16; HIDDEN];
            r[..hidden].iter_mut().for_each(|x| *x = words.next().expect("length checked"));
            r
        };
        let ft_w = (0..rows).map(|_| row()).collect();
        let ft_b = row();
        let read_w: Vec<[[i16; HIDDEN]; 2]> = (0..buckets).map(|_| [row(), row()]).collect();
        let read_b: Vec<i32> =
            bytes[weights..].chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        let out_w = std::array::from_fn(|b| read_w[b % buckets]);
        let out_b = std::array::from_fn(|b| read_b[b % buckets]);
        Ok(Network { kings, ft_w, ft_b, out_w, out_b })
    }

    /// The network built into the engine, parsed once.
    pub fn builtin() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| Arc::new(Network::from_bytes(builtin::BYTES).expect("the built-in network is valid")))
            .clone()
    }

    /// The size of the largest network file this build reads (king buckets, full width):
    /// a bound on what [`Network::load`] reads, so that a device or a runaway file named as
    /// a network is refused instead of read without limit.
    pub const MAX_FILE_BYTES: u64 =
        (16 + 68 + 2 * (MAX_KING_BUCKETS * INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN * BUCKETS) + 4 * BUCKETS) as u64;

    /// Reads a network file: only a regular file of at most [`Network::MAX_FILE_BYTES`]
    /// (a device such as `/dev/zero` named as `EvalFile` is refused, not read).
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = bastion_core::io::read_bounded(path, Network::MAX_FILE_BYTES)?;
        Network::from_bytes(&bytes)
    }

    /// The network a user names: `<internal>` for the built-in one, otherwise a file path
    /// (the `EvalFile` option's and `bastion nnue train --init`'s convention).
    pub fn by_name(name: &str) -> Result<Arc<Network>, NetworkError> {
        match name {
            "<internal>" => Ok(Network::builtin()),
            path => Ok(Arc::new(Network::load(Path::new(path))?)),
        }
    }

    /// The king layout this network was trained with.
    pub fn king_layout(&self) -> KingLayout {
        self.kings
    }

    /// Whether where a king stands changes which rows its side uses (king buckets or mirroring);
    /// without, every view is the plain one and the search can skip looking at the kings.
    #[inline(always)]
    pub(crate) fn has_king_views(&self) -> bool {
        self.kings.flip || self.ft_w.len() > INPUTS
    }

    /// The file bytes of this network: version 2 without king buckets (so older builds read
    /// it), version 3 with them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let rows = self.ft_w.len();
        let mut out = Vec::with_capacity(16 + 68 + 2 * (rows + 1 + 2 * BUCKETS) * HIDDEN + 4 * BUCKETS);
        out.extend_from_slice(if self.has_king_views() { MAGIC_KINGS } else { MAGIC });
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        if self.has_king_views() {
            out.extend_from_slice(&self.kings.to_bytes());
        }
        let rows = self.ft_w.iter().chain(std::iter::once(&self.ft_b)).chain(self.out_w.iter().flatten());
        for r in rows {
            r.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        self.out_b.iter().for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
        out
    }

    /// The accumulator of `pos` computed from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        self.accumulate(white_features(pos))
    }

    /// The accumulator of a position given by its White-perspective inputs.
    pub fn accumulate(&self, white_inputs: impl Iterator<Item = usize>) -> Accumulator {
        // A board has at most 64 pieces, so the inputs fit on the stack.
        let (mut buf, mut n) = ([0usize; 64], 0);
        for f in white_inputs.take(64) {
            buf[n] = f;
            n += 1;
        }
        let inputs = &buf[..n];
        let mut acc = Accumulator { v: [self.ft_b; 2] };
        for (persp, view) in self.kings.views_of(inputs.iter().copied()).into_iter().enumerate() {
            self.change_side(&mut acc.v[persp], persp, view, inputs, &[]);
        }
        acc
    }

    /// Adds the rows of the White-perspective inputs in `added` to perspective `persp`'s units
    /// `acc` (0 White, 1 Black) and subtracts those in `removed`, seen through `view`. From the
    /// biases, adding every input of a position is a refresh of that side.
    pub fn change_side(&self, acc: &mut [i16; HIDDEN], persp: usize, view: View, added: &[usize], removed: &[usize]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the AVX2 copy needs only AVX2, which the CPU was just seen to have.
            return unsafe { self.change_side_avx2(acc, persp, view, added, removed) };
        }
        self.change_rows(acc, persp, view, added, removed)
    }

    /// [`Network::change_side`] compiled for AVX2 (a 256-bit add per 16 units instead of SSE2's
    /// 128-bit one, without register spills).
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn change_side_avx2(
        &self,
        acc: &mut [i16; HIDDEN],
        persp: usize,
        view: View,
        added: &[usize],
        removed: &[usize],
    ) {
        self.change_rows(acc, persp, view, added, removed)
    }

    #[inline(always)]
    fn change_rows(&self, acc: &mut [i16; HIDDEN], persp: usize, view: View, added: &[usize], removed: &[usize]) {
        for &f in added {
            let w = &self.ft_w[view.row(relative(persp, f))];
            acc.iter_mut().zip(w).for_each(|(x, y)| *x = x.wrapping_add(*y));
        }
        for &f in removed {
            let w = &self.ft_w[view.row(relative(persp, f))];
            acc.iter_mut().zip(w).for_each(|(x, y)| *x = x.wrapping_sub(*y));
        }
    }

    /// Brings an accumulator up to date in one pass: `dst` becomes `src` (or its own value, when
    /// `src` is `None`) plus the rows of the White-perspective inputs in `added` and minus those
    /// in `removed`, each perspective seen through its view in `views`. One pass instead of a copy
    /// and a pass per input matters at hundreds of units, where each pass moves several KiB.
    #[inline]
    pub fn update(
        &self,
        dst: &mut Accumulator,
        src: Option<&Accumulator>,
        views: [View; 2],
        added: &[usize],
        removed: &[usize],
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: `update_avx2` needs only AVX2, which the CPU was just seen to have.
            return unsafe { self.update_avx2(dst, src, views, added, removed) };
        }
        self.update_tiles(dst, src, views, added, removed);
    }

    /// [`Network::update`] with AVX2: a tile of [`UPDATE_TILE`] units stays in eight 256-bit
    /// registers while every changed input's rows are added to it, bit-identical to
    /// [`Network::update_tiles`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2(
        &self,
        dst: &mut Accumulator,
        src: Option<&Accumulator>,
        views: [View; 2],
        added: &[usize],
        removed: &[usize],
    ) {
        use std::arch::x86_64::*;
        const LANES: usize = 16;
        const REGS: usize = UPDATE_TILE / LANES;
        for (persp, view) in views.into_iter().enumerate() {
            let out = dst.v[persp].as_mut_ptr();
            let from = src.map_or(out as *const i16, |s| s.v[persp].as_ptr());
            let row = |f: usize| self.ft_w[view.row(relative(persp, f))].as_ptr();
            for k in (0..HIDDEN).step_by(UPDATE_TILE) {
                // SAFETY (all loads and stores below): k + REGS · LANES ≤ HIDDEN, so every
                // 16-lane access lies inside a `[i16; HIDDEN]` row; `loadu`/`storeu` need no
                // alignment. `from` may equal `out` (in place): each tile is read before written.
                let mut r = [_mm256_setzero_si256(); REGS];
                for (j, r) in r.iter_mut().enumerate() {
                    *r = unsafe { _mm256_loadu_si256(from.add(k + j * LANES).cast()) };
                }
                for &f in added {
                    let w = row(f);
                    for (j, r) in r.iter_mut().enumerate() {
                        *r = _mm256_add_epi16(*r, unsafe { _mm256_loadu_si256(w.add(k + j * LANES).cast()) });
                    }
                }
                for &f in removed {
                    let w = row(f);
                    for (j, r) in r.iter_mut().enumerate() {
                        *r = _mm256_sub_epi16(*r, unsafe { _mm256_loadu_si256(w.add(k + j * LANES).cast()) });
                    }
                }
                for (j, r) in r.iter().enumerate() {
                    unsafe { _mm256_storeu_si256(out.add(k + j * LANES).cast(), *r) };
                }
            }
        }
    }

    #[inline(always)]
    fn update_tiles(
        &self,
        dst: &mut Accumulator,
        src: Option<&Accumulator>,
        views: [View; 2],
        added: &[usize],
        removed: &[usize],
    ) {
        for (persp, view) in views.into_iter().enumerate() {
            let row = |f: usize| &self.ft_w[view.row(relative(persp, f))];
            let out = &mut dst.v[persp];
            for k in (0..HIDDEN).step_by(UPDATE_TILE) {
                let from = src.map_or(&*out, |s| &s.v[persp]);
                let mut tile: [i16; UPDATE_TILE] = from[k..k + UPDATE_TILE].try_into().expect("tile");
                for &f in added {
                    tile.iter_mut().zip(&row(f)[k..]).for_each(|(x, w)| *x = x.wrapping_add(*w));
                }
                for &f in removed {
                    tile.iter_mut().zip(&row(f)[k..]).for_each(|(x, w)| *x = x.wrapping_sub(*w));
                }
                out[k..k + UPDATE_TILE].copy_from_slice(&tile);
            }
        }
    }

    /// The network's evaluation in centipawns for the side to move `stm`, with `pieces`
    /// pieces on the board (which choose the output bucket).
    #[inline]
    pub fn output(&self, acc: &Accumulator, stm: Color, pieces: u32) -> i32 {
        let b = bucket(pieces);
        let (us, them) = (&acc.v[stm.index()], &acc.v[1 - stm.index()]);
        let sum = screlu_dot(us, &self.out_w[b][0]) + screlu_dot(them, &self.out_w[b][1]);
        let cp = (sum / QA as i64 + self.out_b[b] as i64) * SCALE as i64 / (QA * QB) as i64;
        cp.clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }

    /// Evaluates `pos` from scratch (no incremental state), for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos.side_to_move(), pos.occupied().count())
    }
}

/// Units [`Network::update`] brings up to date at a time: 128 × i16 fill eight of AVX2's
/// sixteen registers.
const UPDATE_TILE: usize = 128;
const _: () = assert!(HIDDEN.is_multiple_of(UPDATE_TILE));

/// Σ clamp(x, 0, QA)² · w, on the fastest kernel this CPU has; every kernel gives the same
/// result.
///
/// Portable builds target baseline SSE2, where the scalar loop compiles to unpack-heavy code
/// without `pmaddwd` (about 70 ns a call against 10 for the AVX2 kernel), so on x86-64 the
/// kernel is picked at run time, like the accumulator code in [`Network::accumulate`] and
/// [`Network::update`]. Each pick is `is_x86_feature_detected!`: std caches the CPUID answer, so
/// it costs one relaxed load and an always-predicted branch, and a build that already enables
/// AVX2 (target-cpu=native) folds it to `true`.
///
/// Each [`DOT_CHUNK`] units are summed in an i32 and the chunk totals in an i64, so the result
/// is exact for the trainer's weights at any width.
#[inline(always)]
fn screlu_dot(x: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
    let (xs, ws) = (x.as_chunks::<DOT_CHUNK>().0, w.as_chunks::<DOT_CHUNK>().0);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: `screlu_dot_avx2` needs only AVX2, which the CPU was just seen to have.
        return xs.iter().zip(ws).map(|(x, w)| unsafe { screlu_dot_avx2(x, w) } as i64).sum();
    }
    xs.iter().zip(ws).map(|(x, w)| screlu_dot_scalar(x, w) as i64).sum()
}

/// Units whose products one i32 holds: 256 · 255² · 128 < 2³¹ for the trainer's output
/// weights (|w| ≤ 127).
const DOT_CHUNK: usize = 256;
const _: () = assert!(HIDDEN.is_multiple_of(DOT_CHUNK));

/// Σ clamp(x, 0, QA)² · w with AVX2, bit-identical to [`screlu_dot_scalar`] for every input.
///
/// `pmaddwd` multiplies signed 16-bit lanes, and c² = clamp(x, 0, 255)² ≤ 65025 fits 16 bits only
/// unsigned: a lane with c ≥ 182 reads as c² − 65536, so `madd(c², w)` falls short by
/// 65536 · Σ_{c ≥ 182} w, which is added back. That sum is needed only mod 2¹⁶ (it is multiplied
/// by 2¹⁶ in a wrapping 32-bit total), so it is kept in wrapping 16-bit lanes. This stays exact
/// for any i16 weights, so it does not lean on the trainer's clipping of the output weights.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(x: &[i16; DOT_CHUNK], w: &[i16; DOT_CHUNK]) -> i32 {
    use std::arch::x86_64::*;
    const _: () = assert!(DOT_CHUNK.is_multiple_of(32) && QA <= 255);
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    // Two dot accumulators so consecutive `pmaddwd`s do not wait on each other's add.
    let (mut dot0, mut dot1, mut fix) = (zero, zero, zero);
    for i in (0..DOT_CHUNK).step_by(32) {
        // SAFETY: i + 32 ≤ DOT_CHUNK, so all four 16-lane loads lie inside the arrays; `loadu`
        // needs no alignment.
        let (x0, w0, x1, w1) = unsafe {
            let (x, w) = (x.as_ptr().add(i), w.as_ptr().add(i));
            (
                _mm256_loadu_si256(x.cast()),
                _mm256_loadu_si256(w.cast()),
                _mm256_loadu_si256(x.add(16).cast()),
                _mm256_loadu_si256(w.add(16).cast()),
            )
        };
        let c0 = _mm256_min_epi16(_mm256_max_epi16(x0, zero), qa);
        let c1 = _mm256_min_epi16(_mm256_max_epi16(x1, zero), qa);
        let (sq0, sq1) = (_mm256_mullo_epi16(c0, c0), _mm256_mullo_epi16(c1, c1));
        dot0 = _mm256_add_epi32(dot0, _mm256_madd_epi16(sq0, w0));
        dot1 = _mm256_add_epi32(dot1, _mm256_madd_epi16(sq1, w1));
        // The lanes whose square went negative contribute their weight to the correction.
        fix = _mm256_add_epi16(fix, _mm256_and_si256(_mm256_srai_epi16::<15>(sq0), w0));
        fix = _mm256_add_epi16(fix, _mm256_and_si256(_mm256_srai_epi16::<15>(sq1), w1));
    }
    let fix = _mm256_slli_epi32::<16>(_mm256_madd_epi16(fix, _mm256_set1_epi16(1)));
    let s = _mm256_add_epi32(_mm256_add_epi32(dot0, dot1), fix);
    let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

/// Σ clamp(x, 0, QA)² · w over one chunk, portably. Each product fits an i32 for any weight,
/// and the chunk's total does when |w| ≤ 128 (the trainer clips output weights to that).
#[inline(always)]
fn screlu_dot_scalar(x: &[i16; DOT_CHUNK], w: &[i16; DOT_CHUNK]) -> i32 {
    // Wrapping like the AVX2 kernel, so a hand-made file with larger weights gets the same
    // (wrong) value from both instead of a debug-build panic.
    x.iter().zip(w).fold(0i32, |sum, (&x, &w)| {
        let c = x.clamp(0, QA as i16) as i32;
        sum.wrapping_add((c * w as i32) * c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastion_core::rng::Rng;

    /// A row of random weights in `-span..=span`.
    fn random_row(rng: &mut Rng, span: i16) -> [i16; HIDDEN] {
        std::array::from_fn(|_| rng.below(2 * span as usize + 1) as i16 - span)
    }

    /// A network with random weights of about the trainer's sizes (input rows and biases
    /// within ±9, output weights within ±2), for tests that need one besides the built-in.
    pub(crate) fn random_network(seed: u64, kings: KingLayout) -> Network {
        let mut rng = Rng::new(seed);
        let ft_w = (0..kings.count() * INPUTS).map(|_| random_row(&mut rng, 9)).collect();
        let ft_b = random_row(&mut rng, 9);
        let out_w = std::array::from_fn(|_| [random_row(&mut rng, 2), random_row(&mut rng, 2)]);
        let out_b = std::array::from_fn(|_| rng.below(2001) as i32 - 1000);
        Network { kings, ft_w, ft_b, out_w, out_b }
    }

    #[test]
    fn builtin_network_loads_and_knows_material() {
        let net = Network::builtin();
        let queen_up = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let start = Position::startpos();
        assert!(net.evaluate(&queen_up) > 500, "{}", net.evaluate(&queen_up));
        assert!(net.evaluate(&start).abs() < 60, "{}", net.evaluate(&start));
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap().evaluate(&queen_up), net.evaluate(&queen_up));
    }

    #[test]
    fn the_build_is_as_wide_as_its_built_in_network() {
        // A wider build would run the built-in network zero-padded, evaluating the same but
        // slower (about 9 % at 1,024 units): only an experiment wants that.
        let hidden = u32::from_le_bytes(builtin::BYTES[12..16].try_into().unwrap()) as usize;
        assert_eq!(hidden, HIDDEN, "HIDDEN differs from the built-in network's width");
    }

    /// A random array whose lanes are `lo + (random mod span)`, with the edge values planted.
    fn lanes(rng: &mut Rng, lo: i64, span: u64, edges: &[i16]) -> [i16; HIDDEN] {
        let mut a = [0i16; HIDDEN];
        a.iter_mut().for_each(|v| *v = (lo + (rng.next_u64() % span) as i64) as i16);
        for &e in edges {
            a[rng.below(HIDDEN)] = e;
        }
        a
    }

    /// The formula in i64, the reference both kernels must meet.
    fn screlu_dot_exact(x: &[i16], w: &[i16]) -> i64 {
        x.iter().zip(w).map(|(&x, &w)| (x.clamp(0, QA as i16) as i64).pow(2) * w as i64).sum()
    }

    #[test]
    fn screlu_dot_is_exact_for_the_trainers_weights() {
        let mut s = Rng::new(1);
        // Activations well below 0 and above QA (and the square's sign boundary at 181/182);
        // weights over the whole range the trainer allows, ±128 included.
        let x_edges = [i16::MIN, -1, 0, 1, 181, 182, QA as i16, QA as i16 + 1, i16::MAX];
        for round in 0..4000 {
            let x = match round % 3 {
                0 => lanes(&mut s, -400, 1200, &x_edges),
                1 => lanes(&mut s, -30, 300, &x_edges),
                _ => lanes(&mut s, i16::MIN as i64, 1 << 16, &x_edges),
            };
            let w = lanes(&mut s, -128, 257, &[-128, 128]);
            assert_eq!(screlu_dot(&x, &w), screlu_dot_exact(&x, &w), "round {round}");
        }
        // All active at the extremes: the largest totals the format allows.
        let (all_qa, w_max) = ([QA as i16; HIDDEN], [128i16; HIDDEN]);
        assert_eq!(screlu_dot(&all_qa, &w_max), screlu_dot_exact(&all_qa, &w_max));
        let w_min = w_max.map(|w| -w);
        assert_eq!(screlu_dot(&all_qa, &w_min), screlu_dot_exact(&all_qa, &w_min));
    }

    #[test]
    fn avx2_screlu_dot_matches_scalar_for_any_weights() {
        // Out-of-range weights (a hand-made file) may wrap a chunk's i32 total, but both
        // kernels must wrap it the same way: exactly the formula taken mod 2³².
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let mut s = Rng::new(2);
            for round in 0..4000 {
                let x = lanes(&mut s, -400, 1200, &[182, QA as i16]);
                let w = lanes(&mut s, i16::MIN as i64, 1 << 16, &[i16::MIN, i16::MAX]);
                let (x, w) = (&x.as_chunks::<DOT_CHUNK>().0[0], &w.as_chunks::<DOT_CHUNK>().0[0]);
                let want = screlu_dot_exact(x, w) as i32;
                assert_eq!(screlu_dot_scalar(x, w), want, "round {round}");
                // SAFETY: AVX2 was detected just above.
                assert_eq!(unsafe { screlu_dot_avx2(x, w) }, want, "round {round}");
            }
        }
    }

    #[test]
    fn avx2_accumulator_updates_match_the_portable_ones() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let bucketed = random_network(5, KingLayout::by_name("mirror4").unwrap());
            for net in [(*Network::builtin()).clone(), bucketed] {
                let mut s = Rng::new(3);
                for _ in 0..100 {
                    let feats: Vec<usize> = (0..32).map(|_| s.below(INPUTS)).collect();
                    let views = net.kings.views_of(feats.iter().copied());
                    let (mut fast, mut slow) = (Accumulator { v: [net.ft_b; 2] }, Accumulator { v: [net.ft_b; 2] });
                    for (persp, view) in views.into_iter().enumerate() {
                        // SAFETY: AVX2 was detected just above.
                        unsafe { net.change_side_avx2(&mut fast.v[persp], persp, view, &feats, &feats[..3]) };
                        net.change_rows(&mut slow.v[persp], persp, view, &feats, &feats[..3]);
                    }
                    assert_eq!(fast.v, slow.v);
                    // Random additions and removals, far more at once than a search makes, into a
                    // separate accumulator and in place.
                    let list = |s: &mut Rng| -> Vec<usize> { (0..s.below(12)).map(|_| s.below(INPUTS)).collect() };
                    for _ in 0..16 {
                        let (added, removed) = (list(&mut s), list(&mut s));
                        let (mut fast_into, mut slow_into) =
                            (Accumulator { v: [[7; HIDDEN]; 2] }, Accumulator { v: [[0; HIDDEN]; 2] });
                        // SAFETY: AVX2 was detected just above.
                        unsafe { net.update_avx2(&mut fast_into, Some(&fast), views, &added, &removed) };
                        net.update_tiles(&mut slow_into, Some(&slow), views, &added, &removed);
                        // SAFETY: as above.
                        unsafe { net.update_avx2(&mut fast, None, views, &added, &removed) };
                        net.update_tiles(&mut slow, None, views, &added, &removed);
                        assert_eq!(fast.v, slow.v);
                        assert_eq!(fast_into.v, fast.v);
                        assert_eq!(slow_into.v, slow.v);
                    }
                    // And the result is the accumulator of the inputs left (seen the same way).
                    let mut left = feats.clone();
                    let (added, removed) = (list(&mut s), left.split_off(left.len() / 2));
                    left.extend(&added);
                    let mut from_feats = Accumulator { v: [net.ft_b; 2] };
                    let mut want = Accumulator { v: [net.ft_b; 2] };
                    for (persp, view) in views.into_iter().enumerate() {
                        net.change_rows(&mut from_feats.v[persp], persp, view, &feats, &[]);
                        net.change_rows(&mut want.v[persp], persp, view, &left, &[]);
                    }
                    net.update(&mut from_feats, None, views, &added, &removed);
                    assert_eq!(from_feats.v, want.v);
                }
            }
        }
    }

    #[test]
    fn king_layouts_pick_blocks_by_king_square_and_mirror_files() {
        let none = KingLayout::NONE;
        assert_eq!(none.count(), 1);
        let m4 = KingLayout::by_name("mirror4").unwrap();
        assert_eq!(m4.count(), 4);
        assert!(KingLayout::by_name("mirror5").is_none());
        let k4 = KingLayout::by_name("kings4").unwrap();
        assert_eq!(k4.count(), 4);
        let sq = |name: &str| {
            let b = name.as_bytes();
            ((b[1] - b'1') * 8 + (b[0] - b'a')) as usize
        };
        // White's king: g1 is b1 mirrored (bucket 0), e1 is d1 mirrored (bucket 1).
        assert_eq!(m4.view(Color::White, sq("g1")), View { offset: 0, xor: 7 });
        assert_eq!(m4.view(Color::White, sq("b1")), View { offset: 0, xor: 0 });
        assert_eq!(m4.view(Color::White, sq("e1")), View { offset: INPUTS, xor: 7 });
        assert_eq!(m4.view(Color::White, sq("c2")), View { offset: 2 * INPUTS, xor: 0 });
        assert_eq!(m4.view(Color::White, sq("h5")), View { offset: 3 * INPUTS, xor: 7 });
        // Black's king is seen from its own side: g8 is its g1.
        assert_eq!(m4.view(Color::Black, sq("g8")), m4.view(Color::White, sq("g1")));
        assert_eq!(m4.view(Color::Black, sq("a7")), View { offset: 2 * INPUTS, xor: 0 });
        assert!((0..64).all(|k| none.view(Color::Black, k) == View { offset: 0, xor: 0 }));
        // Without mirroring, the wings are buckets of their own.
        assert_eq!(k4.view(Color::White, sq("g1")), View { offset: 2 * INPUTS, xor: 0 });
        assert_eq!(k4.view(Color::Black, sq("c8")), View { offset: 0, xor: 0 });
        assert_eq!(k4.view(Color::Black, sq("e8")), View { offset: INPUTS, xor: 0 });
        assert_eq!(k4.view(Color::White, sq("e2")), View { offset: 3 * INPUTS, xor: 0 });
        // A mirrored view moves each input to the same piece on the other wing.
        let v = m4.view(Color::White, sq("g1"));
        assert_eq!(
            v.row(feature(Color::White, Color::Black, Role::Knight, sq("b8"))),
            feature(Color::White, Color::Black, Role::Knight, sq("g8"))
        );
        // The views found from a position and from its inputs agree.
        let pos = Position::from_fen("r4rk1/pp3ppp/8/8/8/8/PP3PPP/2KR3R b - - 0 1").unwrap();
        let feats: Vec<usize> = white_features(&pos).collect();
        assert_eq!(m4.views(&pos), m4.views_of(feats.iter().copied()));
        assert_eq!(m4.views(&pos), [m4.view(Color::White, sq("c1")), m4.view(Color::Black, sq("g8"))]);
        assert_eq!(m4.views(&pos)[1].xor, 7);
    }

    #[test]
    fn a_king_bucketed_network_round_trips_and_mirrors_exactly() {
        let m4 = KingLayout::by_name("mirror4").unwrap();
        let net = random_network(8, m4);
        assert_eq!(net.ft_w.len(), 4 * INPUTS);
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], MAGIC_KINGS);
        let back = Network::from_bytes(&bytes).unwrap();
        assert!(back.to_bytes() == bytes && back.king_layout() == m4);
        for cut in [1, 40, bytes.len() - 90] {
            assert!(Network::from_bytes(&bytes[..bytes.len() - cut]).is_err(), "cut {cut}");
        }
        let mut bad = bytes.clone();
        bad[16 + 5] = MAX_KING_BUCKETS as u8;
        assert!(Network::from_bytes(&bad).is_err());
        // Every input is seen through the king's wing, so a position without castling rights and its
        // left-right mirror evaluate the same, whatever the weights.
        for fen in ["r4rk1/pp3ppp/2n5/3p4/8/2N5/PP3PPP/2KR3R w - - 0 1", "8/5pk1/6p1/3Pp3/1r6/5P2/6PK/R7 b - - 0 40"] {
            let (board, rest) = fen.split_once(' ').unwrap();
            let flipped: Vec<String> = board.split('/').map(|r| r.chars().rev().collect()).collect();
            let (a, b) = (
                Position::from_fen(fen).unwrap(),
                Position::from_fen(&format!("{} {rest}", flipped.join("/"))).unwrap(),
            );
            assert_eq!(net.evaluate(&a), net.evaluate(&b));
        }
    }

    /// The bytes of a first-version file holding bucket `b`'s output layer of `net`.
    fn version_one_bytes(net: &Network, b: usize) -> Vec<u8> {
        let mut out = MAGIC_V1.to_vec();
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for r in net.ft_w.iter().chain(std::iter::once(&net.ft_b)).chain(net.out_w[b].iter()) {
            r.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        out.extend_from_slice(&net.out_b[b].to_le_bytes());
        out
    }

    #[test]
    fn both_file_versions_load_and_buckets_follow_the_piece_count() {
        let mut net = (*Network::builtin()).clone();
        // Make the buckets differ so that a mix-up shows.
        for (b, (w, bias)) in net.out_w.iter_mut().zip(net.out_b.iter_mut()).enumerate() {
            w[0][b] = w[0][b].wrapping_add(7 * b as i16 + 1);
            *bias += 1000 * b as i32;
        }
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert!(back.to_bytes() == net.to_bytes());
        let mut short = net.to_bytes();
        short.pop();
        assert!(Network::from_bytes(&short).is_err());
        // A version-1 file has one output layer; every bucket gets it.
        let one = Network::from_bytes(&version_one_bytes(&net, 3)).unwrap();
        assert!(one.out_w.iter().all(|w| *w == net.out_w[3]) && one.out_b.iter().all(|&b| b == net.out_b[3]));
        let mut bad = version_one_bytes(&net, 3);
        bad.push(0);
        assert!(Network::from_bytes(&bad).is_err());
        assert_eq!(
            (bucket(2), bucket(5), bucket(6), bucket(17), bucket(29), bucket(30), bucket(32)),
            (0, 0, 1, 3, 6, 7, 7)
        );
        // The evaluation uses the bucket of the position's piece count.
        for fen in ["4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R b KQkq - 0 1"] {
            let pos = Position::from_fen(fen).unwrap();
            let b = bucket(pos.occupied().count());
            let only = Network::from_bytes(&version_one_bytes(&net, b)).unwrap();
            assert_eq!(net.evaluate(&pos), only.evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn a_narrower_network_loads_with_its_missing_units_zero() {
        const W: usize = 64;
        let net = Network::builtin();
        let mut narrow = MAGIC.to_vec();
        narrow.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        narrow.extend_from_slice(&(W as u32).to_le_bytes());
        for r in net.ft_w.iter().chain(std::iter::once(&net.ft_b)).chain(net.out_w.iter().flatten()) {
            r[..W].iter().for_each(|x| narrow.extend_from_slice(&x.to_le_bytes()));
        }
        net.out_b.iter().for_each(|b| narrow.extend_from_slice(&b.to_le_bytes()));
        // The same network with every unit from W on zeroed.
        let mut zeroed = (*net).clone();
        let cut = |r: &mut [i16; HIDDEN]| r[W..].fill(0);
        zeroed.ft_w.iter_mut().chain(std::iter::once(&mut zeroed.ft_b)).for_each(cut);
        zeroed.out_w.iter_mut().flatten().for_each(cut);
        let read = Network::from_bytes(&narrow).unwrap();
        assert!(read.to_bytes() == zeroed.to_bytes());
        let pos = Position::from_fen("r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R b KQkq - 0 1").unwrap();
        assert_eq!(read.evaluate(&pos), zeroed.evaluate(&pos));
        let mut short = narrow.clone();
        short.pop();
        assert!(Network::from_bytes(&short).is_err());
        // No units, or more than this build has, is not a network it can read.
        for hidden in [0, HIDDEN as u32 + 32] {
            let mut bad = narrow.clone();
            bad[12..16].copy_from_slice(&hidden.to_le_bytes());
            assert!(Network::from_bytes(&bad).is_err(), "{hidden} units");
        }
    }

    #[test]
    fn mirror_is_the_other_perspective_and_an_involution() {
        for c in Color::ALL {
            for r in Role::ALL {
                for sq in 0..64 {
                    let w = feature(Color::White, c, r, sq);
                    assert_eq!(mirror(w), feature(Color::Black, c, r, sq));
                    assert_eq!(mirror(mirror(w)), w);
                }
            }
        }
    }

    /// `setoption name EvalFile value /dev/zero` used to read without end; a device, and a
    /// file larger than any network, are refused at once, unread.
    #[test]
    fn load_refuses_devices_and_oversized_files() {
        if Path::new("/dev/zero").exists() {
            let e = Network::by_name("/dev/zero").unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.nnue");
        // Sparse: costs no disk.
        std::fs::File::create(&path).unwrap().set_len(1 << 40).unwrap();
        let e = Network::load(&path).unwrap_err();
        assert!(e.to_string().contains("file larger than"), "{e}");
        // The largest network this build reads still passes the bound.
        let kings = KingLayout::from_bytes(&[&[MAX_KING_BUCKETS as u8 - 1; 64][..], &[1, 0, 0, 0]].concat()).unwrap();
        assert_eq!(random_network(1, kings).to_bytes().len() as u64, Network::MAX_FILE_BYTES);
    }
}
