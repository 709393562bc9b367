//! Opening-book hook. Before searching, the UCI session asks a [`BookProber`]
//! for a move when `OwnBook` is on; the `bastion` binary plugs in Polyglot
//! books, so the engine itself depends on no book format.

use bastion_core::{Move, Position};
use std::sync::Arc;

/// Something that can suggest a book move.
pub trait BookProber: Send + Sync {
    /// A book move for `pos`, chosen by weight with the help of `random`; `None` out of book.
    fn pick(&self, pos: &Position, random: u64) -> Option<Move>;
}

/// Opens a book file for the `BookFile` option.
pub type BookLoader = Box<dyn Fn(&str) -> Result<Arc<dyn BookProber>, String> + Send>;
