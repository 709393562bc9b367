//! Training positions: reading `fen,result,game[,score]` lines into the compact form the
//! [`crate::trainer`] iterates over.
//!
//! Data lines are the self-play files of [`crate::selfplay`] (`bastion tune --generate`),
//! optionally with a fourth column, White's search score in centipawns, added by
//! [`crate::label`]. The target of a position is `λ·σ(score/K) + (1−λ)·result` (just the
//! result without a score), and the loss is the squared error between that and
//! `σ(output/K)`: a win-probability fit as in the Texel tuner, with `K` the centipawn scale
//! of its logistic.

use crate::packed::{for_each_record, DataFormat};
use bastion_core::{Color, Position};
use bastion_engine::eval::{self, PawnCache};
use bastion_engine::nnue::white_features;
use std::io::BufRead;
use std::path::Path;

/// Centipawns per unit of the win-probability logistic (fitted to the self-play data
/// by the Texel tuner: K = 2.63 on a 400 cp scale).
pub const WDL_CP: f32 = 152.0;

/// Training positions in compact form.
#[derive(Default)]
pub struct Dataset {
    /// White-perspective input indices of every position, back to back.
    feats: Vec<u16>,
    /// `feats[ends[i-1]..ends[i]]` are position `i`'s inputs. 64-bit: at about 30 inputs a
    /// position, 32-bit offsets would wrap past some 140 M positions.
    ends: Vec<u64>,
    /// Side to move is White.
    pub(crate) white_to_move: Vec<bool>,
    /// No castling rights: the position mirrored left to right is as good a training example
    /// (the inputs cannot show castling rights, but a mirrored right would be a different game).
    pub(crate) mirrorable: Vec<bool>,
    /// Target win probability for the side to move.
    pub(crate) target: Vec<f32>,
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
    /// with [`crate::Trainer::loss`]; computed only for validation sets).
    pub fn reference_loss(&self) -> f64 {
        self.reference_sq_error / self.len().max(1) as f64
    }

    /// Moves every position of `other` to the end of this set (several data files read as one).
    pub fn append(&mut self, other: Dataset) {
        let base = self.feats.len() as u64;
        self.feats.extend(other.feats);
        self.ends.extend(other.ends.into_iter().map(|end| base + end));
        self.white_to_move.extend(other.white_to_move);
        self.mirrorable.extend(other.mirrorable);
        self.target.extend(other.target);
        self.reference_sq_error += other.reference_sq_error;
    }

    pub(crate) fn push(&mut self, pos: &Position, white_target: f32, reference: bool) {
        self.push_with_castling(pos, !pos.castling().is_empty(), white_target, reference);
    }

    /// As [`Dataset::push`] for a position whose castling rights are given apart (packed
    /// records are read without building them).
    fn push_with_castling(&mut self, pos: &Position, castling: bool, white_target: f32, reference: bool) {
        self.feats.extend(white_features(pos).map(|f| f as u16));
        self.ends.push(self.feats.len() as u64);
        let white = pos.side_to_move() == Color::White;
        self.white_to_move.push(white);
        self.mirrorable.push(!castling);
        let target = if white { white_target } else { 1.0 - white_target };
        self.target.push(target);
        if reference {
            let hce = eval::evaluate(pos, &mut PawnCache::new()) as f32;
            self.reference_sq_error += ((sigmoid(hce / WDL_CP) - target) as f64).powi(2);
        }
    }

    pub(crate) fn inputs(&self, i: usize) -> &[u16] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.feats[start..self.ends[i] as usize]
    }
}

/// The logistic function.
pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn load_packed(path: &Path, lambda: f32, val_every: usize) -> std::io::Result<(Dataset, Dataset, usize)> {
    let (mut train, mut val, mut bad) = (Dataset::default(), Dataset::default(), 0);
    let mut i = 0usize;
    let partial = for_each_record(path, |rec| {
        match rec.training() {
            Ok(v) => {
                let target = blend(lambda, f32::from(v.white_score), v.result);
                if val_every > 0 && i % val_every == val_every - 1 {
                    val.push_with_castling(&v.position, v.castling, target, true);
                } else {
                    train.push_with_castling(&v.position, v.castling, target, false);
                }
            }
            Err(_) => bad += 1,
        }
        i += 1;
    })?;
    Ok((train, val, bad + usize::from(partial > 0)))
}

/// White's target from a score and a result: `λ·σ(score/K) + (1 − λ)·result`.
fn blend(lambda: f32, score: f32, result: f32) -> f32 {
    lambda * sigmoid(score / WDL_CP) + (1.0 - lambda) * result
}

/// White's target from whichever of a score and a result a line has ([`blend`] for both).
fn target(lambda: f32, score: Option<f32>, result: Option<f32>) -> Option<f32> {
    match (score, result) {
        (Some(score), Some(result)) => Some(blend(lambda, score, result)),
        (Some(score), None) => Some(sigmoid(score / WDL_CP)),
        (None, Some(result)) => Some(result),
        (None, None) => None,
    }
}

/// Splits one data line into its position, its result (White's view, 0–1; the field may be
/// empty) and White's score when the line has one; `None` for a bad line.
pub(crate) fn parse_fields(line: &str) -> Option<(Position, Option<f32>, Option<f32>)> {
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
    Some((pos, result, score))
}

/// Parses one data line into a position and White's target; `None` for a bad line.
fn parse_line(line: &str, lambda: f32) -> Option<(Position, f32)> {
    let (pos, result, score) = parse_fields(line)?;
    Some((pos, target(lambda, score, result)?))
}

/// Reads a data file into a training and a validation set (every `val_every`-th
/// line or record goes to validation; 0 = none). Returns the sets and the number of bad
/// lines or records (a partial record at the end of a packed file counts as one).
/// The format follows the name ([`DataFormat::of`]).
pub fn load(path: &Path, lambda: f32, val_every: usize) -> std::io::Result<(Dataset, Dataset, usize)> {
    if DataFormat::of(path) == DataFormat::Packed {
        return load_packed(path, lambda, val_every);
    }
    // Streamed line by line: any regular file will do, but not a device or a FIFO.
    let f = std::io::BufReader::new(bastion_core::io::open_checked(path, u64::MAX)?);
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

/// A data file that could not be read, named.
#[derive(Debug, thiserror::Error)]
#[error("reading {}", path.display())]
pub struct LoadError {
    /// The file.
    pub path: std::path::PathBuf,
    /// Why it could not be read.
    #[source]
    pub source: std::io::Error,
}

/// Reads several data files as one set, in order ([`load`] on each, the sets appended): the
/// training set, the validation set and the number of bad lines or records of them all.
pub fn load_all<P: AsRef<Path>>(
    paths: &[P],
    lambda: f32,
    val_every: usize,
) -> Result<(Dataset, Dataset, usize), LoadError> {
    let (mut train, mut val, mut bad) = (Dataset::default(), Dataset::default(), 0);
    for path in paths {
        let path = path.as_ref();
        let (t, v, b) =
            load(path, lambda, val_every).map_err(|source| LoadError { path: path.to_path_buf(), source })?;
        train.append(t);
        val.append(v);
        bad += b;
    }
    Ok((train, val, bad))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::{random_positions, PackedRecord};

    /// Writes `positions` with a score and a result that follow from their index in the whole
    /// list (`first` is the index of the first one).
    fn write_packed(path: &Path, positions: &[Position], first: usize) {
        let bytes: Vec<u8> = positions
            .iter()
            .enumerate()
            .map(|(i, pos)| (first + i, pos))
            .flat_map(|(i, pos)| PackedRecord::pack(pos, (i as i32 * 53) % 900 - 450, [0.0, 0.5, 1.0][i % 3]).0)
            .collect();
        std::fs::write(path, bytes).unwrap();
    }

    fn positions_of(set: &Dataset) -> Vec<(Vec<u16>, bool, bool, f32)> {
        (0..set.len())
            .map(|i| (set.inputs(i).to_vec(), set.white_to_move[i], set.mirrorable[i], set.target[i]))
            .collect()
    }

    /// Files read one by one and appended give the same set as their concatenation read at
    /// once, validation split and reference loss included.
    #[test]
    fn appended_files_read_as_their_concatenation() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let positions = random_positions(5, 12);
        let (head, tail) = positions.split_at(positions.len() / 3 * 2);
        let (a, b, both) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("ab.bin"));
        write_packed(&a, head, 0);
        write_packed(&b, tail, head.len());
        write_packed(&both, &positions, 0);
        // Validation every record, so the reference loss is summed over every file too.
        for val_every in [0, 1] {
            let (mut train, mut val, mut bad) = load(&a, 0.75, val_every).unwrap();
            let (t, v, b2) = load(&b, 0.75, val_every).unwrap();
            train.append(t);
            val.append(v);
            bad += b2;
            let (whole_train, whole_val, whole_bad) = load(&both, 0.75, val_every).unwrap();
            assert_eq!(positions_of(&train), positions_of(&whole_train));
            assert_eq!(positions_of(&val), positions_of(&whole_val));
            assert_eq!(bad, whole_bad);
            assert!((val.reference_loss() - whole_val.reference_loss()).abs() < 1e-12);
            assert_eq!(train.len() + val.len(), positions.len());
        }
    }
}
