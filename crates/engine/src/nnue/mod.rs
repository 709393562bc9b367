//! A neural evaluation in the NNUE style: 768 piece-square inputs per perspective,
//! one hidden layer of [`HIDDEN`] units shared by both perspectives, squared clipped
//! ReLU, and one output.
//!
//! The input layer is a sum of weight rows, one per piece on the board, so it is kept
//! up to date incrementally as the search moves ([`AccumulatorStack`]). Inference is
//! integer arithmetic on a quantised copy of the weights the trainer ([`train`])
//! fits in floating point; the file format is in `docs/nnue-format.md`.

mod stack;
pub mod train;

pub use stack::AccumulatorStack;

use bastion_core::{Color, Position, Role};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Inputs per perspective: 2 colours (own, other) × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden units per perspective.
pub const HIDDEN: usize = 256;
/// Quantisation of the input layer (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;
/// File magic and version.
const MAGIC: &[u8; 8] = b"BSTNNUE1";

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

/// One step of a xorshift generator (for the trainer's shuffles and initial weights, the
/// labeller's random moves and the tests); `s` must not be 0.
pub(crate) fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// Why a network file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be read.
    #[error("cannot read network file: {0}")]
    Io(#[from] std::io::Error),
    /// The file is not a network of this build's shape.
    #[error("not a Bastion network file ({0})")]
    Format(String),
}

/// The network built into the engine (`crates/engine/nets/default.nnue`), trained by
/// `bastion nnue train` on the project's own self-play data (see `notes/engine.md`).
const BUILTIN: &[u8] = include_bytes!("../../nets/default.nnue");

/// Quantised network weights, ready for inference.
#[derive(Clone)]
pub struct Network {
    /// Input weights, `INPUTS` rows of `HIDDEN`, scaled by `QA`.
    pub(crate) ft_w: Vec<[i16; HIDDEN]>,
    /// Hidden biases, scaled by `QA`.
    pub(crate) ft_b: [i16; HIDDEN],
    /// Output weights: side to move's units, then the other side's; scaled by `QB`.
    pub(crate) out_w: [[i16; HIDDEN]; 2],
    /// Output bias, scaled by `QA * QB`.
    pub(crate) out_b: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}->{HIDDEN}x2->1)")
    }
}

/// The hidden layer of both perspectives, indexed by colour.
#[derive(Clone, Copy)]
pub struct Accumulator {
    /// Pre-activation values, scaled by `QA`.
    pub v: [[i16; HIDDEN]; 2],
}

impl Network {
    /// Reads a network from its file bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let bad = |m: &str| NetworkError::Format(m.to_string());
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(bad("bad magic"));
        }
        let inputs = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        let hidden = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
        if inputs != INPUTS || hidden != HIDDEN {
            return Err(NetworkError::Format(format!("shape {inputs}->{hidden}, this build reads {INPUTS}->{HIDDEN}")));
        }
        let want = 16 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
        if bytes.len() != want {
            return Err(NetworkError::Format(format!("{} bytes, expected {want}", bytes.len())));
        }
        let mut words = bytes[16..want - 4].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || {
            let mut r = [0i16; HIDDEN];
            r.iter_mut().for_each(|x| *x = words.next().expect("length checked"));
            r
        };
        let ft_w = (0..INPUTS).map(|_| row()).collect();
        let ft_b = row();
        let out_w = [row(), row()];
        let out_b = i32::from_le_bytes(bytes[want - 4..].try_into().expect("4 bytes"));
        Ok(Network { ft_w, ft_b, out_w, out_b })
    }

    /// The network built into the engine, parsed once.
    pub fn builtin() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| Arc::new(Network::from_bytes(BUILTIN).expect("the built-in network is valid"))).clone()
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        Network::from_bytes(&std::fs::read(path)?)
    }

    /// The file bytes of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 2 * (INPUTS + 3) * HIDDEN + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let rows = self.ft_w.iter().chain(std::iter::once(&self.ft_b)).chain(self.out_w.iter());
        for r in rows {
            r.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        out.extend_from_slice(&self.out_b.to_le_bytes());
        out
    }

    /// The accumulator of `pos` computed from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        self.accumulate(white_features(pos))
    }

    /// The accumulator of a position given by its White-perspective inputs.
    pub fn accumulate(&self, white_inputs: impl Iterator<Item = usize>) -> Accumulator {
        let mut acc = Accumulator { v: [self.ft_b; 2] };
        for f in white_inputs {
            add(&mut acc.v[0], &self.ft_w[f]);
            add(&mut acc.v[1], &self.ft_w[mirror(f)]);
        }
        acc
    }

    /// Adds (`sign` = true) or removes one piece's input to both perspectives.
    #[inline]
    pub fn update(&self, acc: &mut Accumulator, white_feature: usize, sign: bool) {
        let (w, b) = (&self.ft_w[white_feature], &self.ft_w[mirror(white_feature)]);
        if sign {
            add(&mut acc.v[0], w);
            add(&mut acc.v[1], b);
        } else {
            sub(&mut acc.v[0], w);
            sub(&mut acc.v[1], b);
        }
    }

    /// The network's evaluation in centipawns for the side to move `stm`.
    #[inline]
    pub fn output(&self, acc: &Accumulator, stm: Color) -> i32 {
        let (us, them) = (&acc.v[stm.index()], &acc.v[1 - stm.index()]);
        let sum = screlu_dot(us, &self.out_w[0]) + screlu_dot(them, &self.out_w[1]);
        (sum / QA + self.out_b) * SCALE / (QA * QB)
    }

    /// Evaluates `pos` from scratch (no incremental state), for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos.side_to_move())
    }
}

#[inline(always)]
fn add(a: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    a.iter_mut().zip(w).for_each(|(x, y)| *x = x.wrapping_add(*y));
}

#[inline(always)]
fn sub(a: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    a.iter_mut().zip(w).for_each(|(x, y)| *x = x.wrapping_sub(*y));
}

/// Σ clamp(x, 0, QA)² · w. The product `clamp · w` fits an i16 when |w| ≤ 128 (the trainer
/// clips output weights to that), so only the final multiply widens.
#[inline(always)]
fn screlu_dot(x: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    x.iter()
        .zip(w)
        .map(|(&x, &w)| {
            let c = x.clamp(0, QA as i16) as i32;
            (c * w as i32) * c
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
