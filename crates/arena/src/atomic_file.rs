//! Writing a file so that an interrupted write never leaves it half-written.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file next to it (`path` with the extension
/// `tmp_extension`), flushed to disk and then renamed over `path`: a reader, or a run resumed
/// after a kill, sees the old file or the new one, never a mix.
pub(crate) fn write_atomically(path: &Path, tmp_extension: &str, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension(tmp_extension);
    let mut file = std::fs::File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("bastion-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.json");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, "partial", b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert!(!dir.join("state.partial").exists());
        // A directory that does not exist: an error, not a panic.
        assert!(write_atomically(&dir.join("missing/x.json"), "partial", b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
