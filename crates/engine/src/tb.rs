//! The engine's view of endgame tablebases: the shared prober trait and value of
//! the core, so that the search consults any tables (Bastion's DTM tables, Syzygy,
//! both) without depending on the code that reads them.

pub use bastion_core::tablebase::{TablebaseProbe, Wdl};
