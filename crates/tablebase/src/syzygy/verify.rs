//! `tb syzygy --verify`: checks each Syzygy file of a directory.
//!
//! Every table file ends with a 16-byte checksum of its contents. The check
//! recomputes that checksum from the contents (which finds a changed byte anywhere
//! in the file) and compares the stored one with the checksum the Syzygy project
//! publishes for the table's name (which finds a foreign or swapped file), after
//! checking the size against the format's rule (64 k + 16 bytes).

use super::checksum;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The published checksums of the tables with up to four men.
const PUBLISHED: &str = include_str!("checksums.txt");

/// The published checksum of the table file `name` (e.g. `KQvKR.rtbw`), in hex.
pub fn published_checksum(name: &str) -> Option<&'static str> {
    PUBLISHED
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(": "))
        .find(|(n, _)| *n == name)
        .map(|(_, sum)| sum.trim())
}

/// The verdict on one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileStatus {
    /// Size, contents and stored checksum as they should be.
    Ok,
    /// Size and contents agree with the stored checksum, but no checksum is published
    /// here for this name.
    Unlisted,
    /// The size cannot be a table's: truncated or extended.
    BadSize,
    /// The contents do not hash to the checksum stored at the file's end: damaged.
    ContentsDamaged,
    /// The stored checksum differs from the published one.
    ChecksumMismatch,
    /// The file could not be read, or is not a regular file.
    Unreadable,
}

impl FileStatus {
    /// True for a file that failed the check (anything but `Ok` and `Unlisted`).
    pub fn is_bad(&self) -> bool {
        !matches!(self, FileStatus::Ok | FileStatus::Unlisted)
    }
}

/// One file's check.
#[derive(Debug, Clone, Serialize)]
pub struct FileCheck {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes (0 when unreadable).
    pub bytes: u64,
    /// The checksum stored at its end, in hex (`None` when it cannot be read).
    pub stored: Option<String>,
    /// The published checksum for its name.
    pub published: Option<String>,
    /// The verdict.
    pub status: FileStatus,
    /// A short explanation for anything but [`FileStatus::Ok`].
    pub detail: Option<String>,
}

impl FileCheck {
    /// One line for a terminal: name, size, verdict and why.
    pub fn to_line(&self) -> String {
        let name = self.path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        let detail = self.detail.as_deref().map(|d| format!(" ({d})")).unwrap_or_default();
        format!("{name:<14} {:>9} bytes  {:?}{detail}", self.bytes, self.status)
    }
}

fn stored_checksum(path: &Path, len: u64) -> std::io::Result<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path)?;
    f.seek(SeekFrom::Start(len - 16))?;
    let mut tail = [0u8; 16];
    f.read_exact(&mut tail)?;
    Ok(hex(&tail))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks one file.
pub fn check_file(path: &Path) -> FileCheck {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let published = published_checksum(name).map(str::to_string);
    let mut check = FileCheck {
        path: path.to_path_buf(),
        bytes: 0,
        stored: None,
        published: published.clone(),
        status: FileStatus::Ok,
        detail: None,
    };
    let fail = |mut c: FileCheck, status, detail: String| {
        c.status = status;
        c.detail = Some(detail);
        c
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) if m.is_file() => m,
        Ok(_) => return fail(check, FileStatus::Unreadable, "not a regular file".into()),
        Err(e) => return fail(check, FileStatus::Unreadable, e.to_string()),
    };
    check.bytes = meta.len();
    if meta.len() % 64 != 16 {
        let len = meta.len();
        return fail(check, FileStatus::BadSize, format!("size {len} is not 64 k + 16 bytes"));
    }
    match stored_checksum(path, meta.len()) {
        Ok(sum) => check.stored = Some(sum),
        Err(e) => return fail(check, FileStatus::Unreadable, e.to_string()),
    }
    match checksum::file_checksum(path) {
        Ok(sum) if Some(hex(&sum)) == check.stored => {}
        Ok(_) => return fail(check, FileStatus::ContentsDamaged, "contents do not match the stored checksum".into()),
        Err(e) => return fail(check, FileStatus::Unreadable, e.to_string()),
    }
    match &published {
        None => fail(check, FileStatus::Unlisted, "no published checksum for this name here".into()),
        Some(p) if Some(p) != check.stored.as_ref() => {
            fail(check, FileStatus::ChecksumMismatch, "stored checksum differs from the published one".into())
        }
        Some(_) => check,
    }
}

/// Checks every file with a Syzygy table's extension (`.rtbw`, `.rtbz`) in `dir`,
/// in name order.
pub fn verify_directory(dir: &Path) -> std::io::Result<Vec<FileCheck>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("rtbw" | "rtbz")))
        .collect();
    files.sort();
    Ok(files.iter().map(|p| check_file(p)).collect())
}

/// How many checksums are published here per extension, for messages.
pub fn published_count() -> HashMap<&'static str, usize> {
    let mut counts = HashMap::new();
    for line in PUBLISHED.lines().filter(|l| !l.starts_with('#')) {
        if let Some((name, _)) = line.split_once(": ") {
            *counts.entry(if name.ends_with(".rtbw") { "rtbw" } else { "rtbz" }).or_insert(0) += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_three_and_four_man_table_has_a_published_checksum() {
        let counts = published_count();
        assert_eq!(counts.get("rtbw"), Some(&35));
        assert_eq!(counts.get("rtbz"), Some(&35));
        assert_eq!(published_checksum("KQvK.rtbw"), Some("e26581810d53ca655d96f2d6bff3c749"));
        assert_eq!(published_checksum("KQvK.rtbx"), None);
    }
}
