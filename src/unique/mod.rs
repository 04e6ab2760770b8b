//! Unique positions per ply (OEIS A083276 for the start position), memory-bounded: each ply is
//! an external sort of the previous ply's children. Its last ply is also the unit set of a
//! work plan (`vkperft work split`).

mod entry;
mod expansion;
mod scratch;
mod sorter;

pub use expansion::{expand, ExpansionOptions, PlyCount, UniquePosition};

use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum UniqueError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the depth must be at least 1")]
    NoPlies,
    #[error("a stored position does not decode: {0}")]
    BadKey(String),
}

impl UniqueError {
    pub fn io(path: &Path, source: std::io::Error) -> UniqueError {
        UniqueError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
