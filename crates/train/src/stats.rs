//! What a data file holds: its positions by the number of men on the board, the results and
//! the size of the scores — what a network trained on it sees, to compare with the positions
//! it has to judge in games (`bastion nnue stats`).

use crate::packed::{for_each_record, DataFormat};
use bastion_core::Position;
use std::path::Path;

/// Bands of men on the board (both kings included) that reports group positions into:
/// tablebase endings, other endings, late middlegames, middlegames, openings.
pub const MEN_BANDS: [(u32, u32); 5] = [(2, 5), (6, 8), (9, 12), (13, 20), (21, 32)];

/// Counts over the positions of one or more data files ([`DataStats::merge`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DataStats {
    /// Positions read.
    pub positions: u64,
    /// Lines or records that could not be read.
    pub skipped: u64,
    /// Positions by the number of men on the board (index 0–32).
    pub by_men: [u64; 33],
    /// Positions whose game White won, drew and lost (positions without a result are not
    /// counted).
    pub results: [u64; 3],
    /// Positions with a score.
    pub scored: u64,
    /// Sum of `|score|`, in centipawns, over the scored positions.
    pub abs_score_sum: f64,
}

impl Default for DataStats {
    fn default() -> Self {
        DataStats { positions: 0, skipped: 0, by_men: [0; 33], results: [0; 3], scored: 0, abs_score_sum: 0.0 }
    }
}

impl DataStats {
    /// Counts one position, with White's result (0–1) and score when known.
    pub fn add(&mut self, pos: &Position, result: Option<f32>, score: Option<f32>) {
        self.positions += 1;
        self.by_men[(pos.occupied().count() as usize).min(32)] += 1;
        match result {
            Some(r) if r > 0.75 => self.results[0] += 1,
            Some(r) if r < 0.25 => self.results[2] += 1,
            Some(_) => self.results[1] += 1,
            None => {}
        }
        if let Some(s) = score {
            self.scored += 1;
            self.abs_score_sum += f64::from(s.abs());
        }
    }

    /// Adds the counts of another set.
    pub fn merge(&mut self, other: &DataStats) {
        self.positions += other.positions;
        self.skipped += other.skipped;
        for (a, b) in self.by_men.iter_mut().zip(other.by_men) {
            *a += b;
        }
        for (a, b) in self.results.iter_mut().zip(other.results) {
            *a += b;
        }
        self.scored += other.scored;
        self.abs_score_sum += other.abs_score_sum;
    }

    /// The counts of a data file, packed records or `fen,result,game[,score]` lines as its
    /// name says ([`DataFormat::of`]); a partial record at the end counts as skipped.
    pub fn read(path: &Path) -> std::io::Result<DataStats> {
        let mut s = DataStats::default();
        match DataFormat::of(path) {
            DataFormat::Packed => {
                let partial = for_each_record(path, |rec| match rec.unpack() {
                    Ok((pos, score, result)) => s.add(&pos, Some(result), Some(f32::from(score))),
                    Err(_) => s.skipped += 1,
                })?;
                s.skipped += u64::from(partial > 0);
            }
            DataFormat::Csv => {
                use std::io::BufRead;
                let f = std::io::BufReader::new(bastion_core::io::open_checked(path, u64::MAX)?);
                for line in f.lines() {
                    let line = line?;
                    match crate::dataset::parse_fields(&line) {
                        Some((pos, result, score)) => s.add(&pos, result, score),
                        None => s.skipped += u64::from(!line.trim().is_empty()),
                    }
                }
            }
        }
        Ok(s)
    }

    /// The share of positions (0–1) with `lo..=hi` men on the board.
    pub fn share_of_men(&self, lo: u32, hi: u32) -> f64 {
        if self.positions == 0 {
            return 0.0;
        }
        let n: u64 = (lo..=hi.min(32)).map(|m| self.by_men[m as usize]).sum();
        n as f64 / self.positions as f64
    }

    /// The mean size of the scores in pawns, `None` without scores.
    pub fn mean_abs_score(&self) -> Option<f64> {
        (self.scored > 0).then(|| self.abs_score_sum / self.scored as f64 / 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::PackedRecord;

    #[test]
    fn packed_and_line_files_give_the_same_counts() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let rows = [
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 1.0, 40),
            ("8/8/4k3/8/8/3K4/4P3/8 w - - 0 60", 0.5, -250),
            ("8/8/4k3/8/8/3K4/8/7R w - - 0 70", 1.0, 900),
            ("8/8/4k3/8/8/3K4/8/7r w - - 3 70", 0.0, -900),
        ];
        let mut csv = String::new();
        let mut bin = Vec::new();
        for (i, (fen, r, s)) in rows.iter().enumerate() {
            csv.push_str(&format!("{fen},{r},{i},{s}\n"));
            bin.extend_from_slice(&PackedRecord::pack(&Position::from_fen(fen).unwrap(), *s, *r).0);
        }
        csv.push_str("not a fen,1,9,0\n");
        std::fs::write(dir.join("d.csv"), &csv).unwrap();
        bin.extend_from_slice(&[0u8; 7]);
        std::fs::write(dir.join("d.bin"), &bin).unwrap();
        let a = DataStats::read(&dir.join("d.csv")).unwrap();
        let b = DataStats::read(&dir.join("d.bin")).unwrap();
        for s in [&a, &b] {
            assert_eq!(s.positions, 4);
            assert_eq!(s.skipped, 1);
            assert_eq!(s.by_men[32], 1);
            assert_eq!(s.by_men[3], 3);
            assert_eq!(s.results, [2, 1, 1]);
            assert!((s.share_of_men(2, 5) - 0.75).abs() < 1e-12);
            assert!((s.mean_abs_score().unwrap() - 5.225).abs() < 1e-9);
        }
        let mut both = a.clone();
        both.merge(&b);
        assert_eq!(both.positions, 8);
        assert_eq!(both.by_men[3], 6);
    }
}
