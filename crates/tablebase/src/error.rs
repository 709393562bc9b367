//! Errors of table files and probing.

use std::path::PathBuf;

/// What can go wrong reading, writing or probing tables.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    /// File system error on a table file (the cause is part of the message,
    /// not a separate error source, so chains do not print it twice).
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
    /// The file is not a valid table (wrong magic, version, truncated, bad checksum).
    #[error("{path}: corrupt table file: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The file is a valid table of another metric (a DTC table where DTM is read).
    #[error("{path}: holds {} ({found}), not {} ({expected}): not used", found.description(), expected.description())]
    WrongMetric {
        /// The file.
        path: PathBuf,
        /// The file's metric.
        found: crate::metric::Metric,
        /// The metric the reader needs.
        expected: crate::metric::Metric,
    },
    /// A needed sub-table is missing.
    #[error("table {0} is needed but missing")]
    Missing(String),
    /// Bad material string.
    #[error(transparent)]
    Material(#[from] crate::material::MaterialError),
}
