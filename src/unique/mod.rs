//! Unique positions per ply (OEIS A083276 for the start position), memory-bounded: each ply is
//! an external sort of the previous ply's children. Its last ply is also the unit set of a
//! work plan (`vkperft work split`).

mod entry;
mod error;
mod expansion;
mod scratch;
mod sorter;

pub use error::UniqueError;
pub use expansion::{expand, never_interrupted, ExpansionOptions, PlyCount, UniquePosition};
