//! Bounded reading of files a user names, and writing files so that an interruption
//! never leaves one half-written.
//!
//! Every file Bastion opens on a user's word (networks, books, tables, PGN, EPD,
//! suites) goes through here, so that a device such as `/dev/zero`, a FIFO, or a
//! file far larger than its format allows is refused with a clear message instead
//! of being read without limit. The size in the metadata is checked first, but
//! not trusted alone: the reading itself is capped as well.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// One mebibyte, for writing limits.
pub const MIB: u64 = 1 << 20;

/// The cap for text files (PGN, EPD, suites, position lists) read whole. Files
/// streamed a record at a time (PGN for a book, positions to label) are only
/// checked to be regular files: a regular file ends, and the reader holds one
/// record at a time.
pub const TEXT_LIMIT: u64 = 256 * MIB;

/// Why a bounded read failed.
#[derive(Debug, thiserror::Error)]
pub enum BoundedReadError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The path names a device, a FIFO, a directory or a socket, not a regular file.
    #[error("{}: not a regular file", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
    },
    /// The file holds more bytes than its format allows.
    #[error("{}: file larger than {limit} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The most bytes allowed.
        limit: u64,
    },
}

impl BoundedReadError {
    /// The error as an [`io::Error`] without the path, for callers that name the
    /// file themselves.
    pub fn into_io(self) -> io::Error {
        match self {
            BoundedReadError::Io { source, .. } => source,
            BoundedReadError::NotRegular { .. } => io::Error::new(io::ErrorKind::InvalidData, "not a regular file"),
            BoundedReadError::TooLarge { limit, .. } => {
                io::Error::new(io::ErrorKind::InvalidData, format!("file larger than {limit} bytes"))
            }
        }
    }
}

impl From<BoundedReadError> for io::Error {
    fn from(e: BoundedReadError) -> io::Error {
        let kind = match &e {
            BoundedReadError::Io { source, .. } => source.kind(),
            BoundedReadError::NotRegular { .. } | BoundedReadError::TooLarge { .. } => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, e)
    }
}

/// Opens `path` for reading after checking that it is a regular file of at most
/// `max_bytes` bytes. The check comes before opening because opening a FIFO
/// blocks until a writer appears.
pub fn open_checked(path: &Path, max_bytes: u64) -> Result<File, BoundedReadError> {
    let io_err = |source| BoundedReadError::Io { path: path.to_path_buf(), source };
    let meta = std::fs::metadata(path).map_err(io_err)?;
    if !meta.is_file() {
        return Err(BoundedReadError::NotRegular { path: path.to_path_buf() });
    }
    if meta.len() > max_bytes {
        return Err(BoundedReadError::TooLarge { path: path.to_path_buf(), limit: max_bytes });
    }
    let file = File::open(path).map_err(io_err)?;
    // The path could have been replaced between the two looks: check the open file too.
    let meta = file.metadata().map_err(io_err)?;
    if !meta.is_file() {
        return Err(BoundedReadError::NotRegular { path: path.to_path_buf() });
    }
    Ok(file)
}

/// Reads the whole of `path`, refusing anything but a regular file of at most
/// `max_bytes` bytes (a file that grows while being read is refused too).
pub fn read_bounded(path: &Path, max_bytes: u64) -> Result<Vec<u8>, BoundedReadError> {
    let file = open_checked(path, max_bytes)?;
    let hint = file.metadata().map(|m| m.len().min(max_bytes)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0));
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| BoundedReadError::Io { path: path.to_path_buf(), source })?;
    if bytes.len() as u64 > max_bytes {
        return Err(BoundedReadError::TooLarge { path: path.to_path_buf(), limit: max_bytes });
    }
    Ok(bytes)
}

/// Reads the first `len` bytes of `path` (fewer if the file is shorter), after the
/// checks of [`open_checked`] with no size limit: for formats whose header says how
/// large the whole file may be.
pub fn read_head(path: &Path, len: usize) -> Result<Vec<u8>, BoundedReadError> {
    let file = open_checked(path, u64::MAX)?;
    let mut bytes = Vec::with_capacity(len);
    file.take(len as u64)
        .read_to_end(&mut bytes)
        .map_err(|source| BoundedReadError::Io { path: path.to_path_buf(), source })?;
    Ok(bytes)
}

/// Reads the whole of `path` as UTF-8 text, with the checks of [`read_bounded`].
pub fn read_to_string_bounded(path: &Path, max_bytes: u64) -> Result<String, BoundedReadError> {
    let bytes = read_bounded(path, max_bytes)?;
    String::from_utf8(bytes).map_err(|e| BoundedReadError::Io {
        path: path.to_path_buf(),
        source: io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()),
    })
}

/// Opens `path` for buffered, streaming reading of at most `max_bytes` bytes:
/// the reader fails with "file larger than N bytes" once the file goes past the
/// cap, so a line-oriented reader never runs without limit.
pub fn open_bounded(path: &Path, max_bytes: u64) -> Result<BufReader<Capped<File>>, BoundedReadError> {
    let file = open_checked(path, max_bytes)?;
    Ok(BufReader::new(Capped::new(file, max_bytes, path)))
}

/// A reader that fails once more than a set number of bytes have come through.
#[derive(Debug)]
pub struct Capped<R> {
    inner: R,
    left: u64,
    limit: u64,
    path: PathBuf,
}

impl<R: Read> Capped<R> {
    /// Wraps `inner`, allowing `limit` bytes; `path` names the source in the error.
    pub fn new(inner: R, limit: u64, path: &Path) -> Capped<R> {
        Capped { inner, left: limit, limit, path: path.to_path_buf() }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Ask for one byte more than allowed, so that "exactly at the cap" and
        // "past it" can be told apart.
        let want = buf.len().min(usize::try_from(self.left.saturating_add(1)).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            return Err(BoundedReadError::TooLarge { path: self.path.clone(), limit: self.limit }.into());
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Reads the lines of `path` (at most `max_bytes` bytes in all) into memory.
pub fn read_lines_bounded(path: &Path, max_bytes: u64) -> Result<Vec<String>, BoundedReadError> {
    open_bounded(path, max_bytes)?
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|source| BoundedReadError::Io { path: path.to_path_buf(), source })
}

/// Writes `bytes` to `path` through a temporary file next to it (`path` with the extension
/// `tmp_extension`), flushed to disk and then renamed over `path`: a reader, or a run resumed
/// after a kill or a crash of the machine, sees the old file or the new one, never a mix.
pub fn write_atomically(path: &Path, tmp_extension: &str, bytes: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension(tmp_extension);
    let mut file = File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let path = dir.join("state.json");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, "partial", b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert!(!dir.join("state.partial").exists());
        // A directory that does not exist: an error, not a panic.
        assert!(write_atomically(&dir.join("missing/x.json"), "partial", b"x").is_err());
    }

    /// A fresh directory, removed when dropped, and the path `name` in it.
    fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        (dir, path)
    }

    #[test]
    fn reads_a_small_file() {
        let (_dir, p) = temp("small");
        std::fs::write(&p, b"hello\nworld\n").unwrap();
        assert_eq!(read_bounded(&p, 12).unwrap(), b"hello\nworld\n");
        assert_eq!(read_to_string_bounded(&p, 100).unwrap(), "hello\nworld\n");
        assert_eq!(read_lines_bounded(&p, 100).unwrap(), ["hello", "world"]);
        assert!(matches!(read_bounded(&p, 11), Err(BoundedReadError::TooLarge { limit: 11, .. })));
        assert_eq!(read_head(&p, 5).unwrap(), b"hello");
        assert_eq!(read_head(&p, 50).unwrap().len(), 12);
    }

    #[test]
    fn refuses_devices() {
        for dev in ["/dev/zero", "/dev/urandom"] {
            if Path::new(dev).exists() {
                let e = read_bounded(Path::new(dev), 1 << 30).unwrap_err();
                assert!(matches!(e, BoundedReadError::NotRegular { .. }), "{dev}: {e}");
                assert!(e.to_string().contains("not a regular file"));
                assert!(open_bounded(Path::new(dev), 1 << 30).is_err());
            }
        }
    }

    #[test]
    fn refuses_directories() {
        let dir = std::env::temp_dir();
        assert!(matches!(read_bounded(&dir, 1 << 30), Err(BoundedReadError::NotRegular { .. })));
    }

    #[test]
    fn refuses_an_oversized_sparse_file_without_reading_it() {
        let (_dir, p) = temp("sparse");
        std::fs::File::create(&p).unwrap().set_len(1 << 40).unwrap();
        let e = read_bounded(&p, TEXT_LIMIT).unwrap_err();
        assert!(e.to_string().contains("file larger than"), "{e}");
        assert!(open_bounded(&p, TEXT_LIMIT).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_fifo_without_blocking() {
        let (_dir, p) = temp("fifo");
        let made = std::process::Command::new("mkfifo").arg(&p).status().map(|s| s.success()).unwrap_or(false);
        if made {
            assert!(matches!(read_bounded(&p, 1 << 20), Err(BoundedReadError::NotRegular { .. })));
        }
    }

    #[test]
    fn capped_reader_fails_past_the_cap() {
        let mut out = Vec::new();
        let e = Capped::new(io::repeat(0), 1000, Path::new("zeros")).read_to_end(&mut out).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("file larger than 1000 bytes"));
        assert!(out.len() <= 1000);
        let mut out = Vec::new();
        Capped::new(&[7u8; 1000][..], 1000, Path::new("exact")).read_to_end(&mut out).unwrap();
        assert_eq!(out.len(), 1000);
    }
}
