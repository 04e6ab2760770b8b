//! Why finding the unique positions failed.

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
