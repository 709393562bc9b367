//! Bastion's endgame tablebases.
//!
//! * [`gen`]: retrograde generation of distance-to-mate (DTM), distance-to-conversion
//!   (DTC) or distance-to-zeroing (DTZ, [`metric`]) tables, Algorithm B
//!   (Bratko 1978, §2) with move counters, for any material up to five men (pawns
//!   and en passant included, castling excluded).
//! * [`format`]: the compressed, checksummed file format (see
//!   `docs/tablebase-format.md`).
//! * [`probe`]: [`Tablebases`], the thread-safe probing API for engines and tools.
//! * [`bitbase`]: 2-bit win/draw/loss bitbases derived from DTM tables, and the
//!   memory-mapped reader the engine's search probes.
//! * [`syzygy`]: probing standard Syzygy WDL/DTZ files.
//! * [`probers`]: [`Probers`], Bastion's tables (DTM, DTZ, bitbases) and Syzygy's behind the core's
//!   [`TablebaseProbe`](bastion_core::TablebaseProbe) trait, for the engine and the referee.
//! * [`stats`], [`verify`]: statistics and an independent check of a table.

#![warn(missing_docs)]

pub mod bitbase;
pub mod driver;
pub mod error;
pub mod format;
pub mod gen;
pub mod index;
pub mod material;
pub mod metric;
pub mod probe;
pub mod probers;
pub mod report;
pub mod stats;
pub mod syzygy;
pub mod table;
pub mod value;
pub mod verify;

pub use bitbase::{Bitbase, Bitbases, MappedBitbase};
pub use error::TbError;
pub use material::Material;
pub use metric::Metric;
pub use probe::{MoveValue, Tablebases};
pub use probers::{OpenError, Probers};
pub use syzygy::SyzygyProber;
pub use table::{Codes, TableData, TableSet};
pub use value::{Dtm, Wdl};
