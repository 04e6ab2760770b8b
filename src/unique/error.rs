//! Why finding the unique positions failed.

use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum UniqueError {
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        /// Shown in the message, not chained as a source: the error is printed once.
        error: std::io::Error,
    },
    #[error("the depth must be at least 1")]
    NoPlies,
    #[error("a stored position does not decode: {0}")]
    BadKey(String),
    #[error("interrupted")]
    Interrupted,
}

impl UniqueError {
    pub fn io(path: &Path, error: std::io::Error) -> UniqueError {
        UniqueError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}
