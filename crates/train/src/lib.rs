//! Training for Bastion's engine, kept out of the engine library so that programs that
//! only play (the web app, the UCI engine) do not link it.
//!
//! - [`selfplay`] plays fast self-play games and writes quiet positions with the game
//!   result (and optionally the search score) as `fen,result,game[,score]` lines;
//!   [`positions`] writes the same lines from finished games of any source; [`packed`]
//!   holds positions in 32-byte records instead (marlinformat);
//!   [`convert`] turns one form into the other.
//! - [`label`] appends a search score to such lines.
//! - [`dataset`], [`network`] and [`trainer`] fit the engine's neural network to them
//!   and write it in the format [`bastion_engine::nnue::Network`] reads; [`checkpoint`]
//!   keeps a run's files so that it can be continued.
//! - [`stats`] counts what a data file holds (men on the board, results, scores).
//! - [`texel`] fits the hand-written evaluation's weights to game results.

#![warn(missing_docs)]

pub mod checkpoint;
pub mod convert;
pub mod dataset;
pub mod label;
pub mod network;
pub mod packed;
pub mod positions;
pub mod selfplay;
pub mod stats;
pub mod texel;
pub mod trainer;

pub use checkpoint::RunFiles;
pub use dataset::Dataset;
pub use label::{label_file, LabelConfig};
pub use network::FloatNetwork;
pub use selfplay::{is_noisy, GenConfig};
pub use texel::Tuner;
pub use trainer::{TrainConfig, Trainer};

use std::path::Path;

/// Cuts a partial last line (left by an interrupted run) off the file at `path`, so that
/// appending continues on a line of its own, and returns the number of complete lines; 0
/// when there is no file.
pub(crate) fn complete_lines(path: &Path) -> std::io::Result<usize> {
    use std::io::BufRead;
    // Streamed, not read whole: an output file can be large, and must be a regular file.
    let file = match bastion_core::io::open_checked(path, u64::MAX) {
        Ok(file) => file,
        Err(bastion_core::io::BoundedReadError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok(0)
        }
        Err(e) => return Err(e.into()),
    };
    let mut reader = std::io::BufReader::new(file);
    let (mut lines, mut complete, mut len) = (0usize, 0u64, 0u64);
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        for (i, _) in buf.iter().enumerate().filter(|(_, &b)| b == b'\n') {
            lines += 1;
            complete = len + i as u64 + 1;
        }
        let n = buf.len();
        len += n as u64;
        reader.consume(n);
    }
    if complete < len {
        std::fs::OpenOptions::new().write(true).open(path)?.set_len(complete)?;
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_last_line_is_cut_off() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.csv");
        assert_eq!(complete_lines(&path).unwrap(), 0);
        std::fs::write(&path, "a,1,0\nb,0,1\nc,0.").unwrap();
        assert_eq!(complete_lines(&path).unwrap(), 2);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,1,0\nb,0,1\n");
        assert_eq!(complete_lines(&path).unwrap(), 2);
        std::fs::write(&path, "partial").unwrap();
        assert_eq!(complete_lines(&path).unwrap(), 0);
        assert_eq!(std::fs::read(&path).unwrap().len(), 0);
    }
}
