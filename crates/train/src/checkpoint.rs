//! The files of a training run, kept side by side so that an interrupted run can be
//! continued: the network the engine loads, the floating-point weights it was quantised
//! from, and the number of finished epochs.

use crate::FloatNetwork;
use bastion_core::io::write_atomically;
use std::io::{Error, ErrorKind};
use std::path::{Path, PathBuf};

/// Where a run keeps its network, checkpoint and epoch count.
#[derive(Clone, Debug)]
pub struct RunFiles {
    /// The quantised network.
    pub net: PathBuf,
    /// The floating-point weights ([`FloatNetwork::save`]), extension `.ckpt`.
    pub checkpoint: PathBuf,
    /// The number of finished epochs as text, extension `.epoch`.
    pub epochs: PathBuf,
}

impl RunFiles {
    /// The files of a run that writes its network to `net`: the others lie next to it.
    pub fn next_to(net: &Path) -> RunFiles {
        RunFiles { net: net.to_path_buf(), checkpoint: net.with_extension("ckpt"), epochs: net.with_extension("epoch") }
    }

    /// Records the state after `epochs` finished epochs: the network, the checkpoint, then the
    /// epoch count, each replaced atomically, so that a crash between them repeats an epoch and
    /// never skips one. An error names the file it happened on.
    pub fn save(&self, net: &FloatNetwork, epochs: usize) -> std::io::Result<()> {
        write_atomically(&self.net, "partial", &net.quantise().to_bytes()).map_err(|e| writing(&self.net, e))?;
        net.save(&self.checkpoint).map_err(|e| writing(&self.checkpoint, e))?;
        write_atomically(&self.epochs, "partial", format!("{epochs}\n").as_bytes())
            .map_err(|e| writing(&self.epochs, e))
    }

    /// The weights and the number of finished epochs [`RunFiles::save`] last recorded. An
    /// error names the file it happened on.
    pub fn resume(&self) -> std::io::Result<(FloatNetwork, usize)> {
        let path = &self.checkpoint;
        let net = FloatNetwork::load(path)
            .map_err(|e| Error::new(e.kind(), format!("reading checkpoint {}: {e}", path.display())))?;
        let epochs = bastion_core::io::read_to_string_bounded(&self.epochs, 64)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .ok_or_else(|| Error::new(ErrorKind::InvalidData, format!("reading {}", self.epochs.display())))?;
        Ok((net, epochs))
    }
}

/// `e` with the path it happened on.
fn writing(path: &Path, e: Error) -> Error {
    Error::new(e.kind(), format!("writing {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_run_resumes_where_it_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunFiles::next_to(&dir.path().join("net.nnue"));
        assert!(run.resume().err().expect("no run yet").to_string().contains("net.ckpt"));
        let net = FloatNetwork::random(2);
        run.save(&net, 3).unwrap();
        let (back, epochs) = run.resume().unwrap();
        assert_eq!(epochs, 3);
        assert!(back.quantise().to_bytes() == std::fs::read(&run.net).unwrap());
        std::fs::remove_file(&run.epochs).unwrap();
        assert!(run.resume().err().expect("no epoch count").to_string().contains("net.epoch"));
    }
}
