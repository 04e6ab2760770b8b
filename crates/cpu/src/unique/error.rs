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
    #[error("{}: {reason}", path.display())]
    Corrupt { path: PathBuf, reason: String },
    #[error("the depth must be at least 1")]
    NoPlies,
    #[error("the number of threads must be at least 1")]
    NoThreads,
    #[error("a position's paths passed 2^56 at ply {ply}")]
    PathsOverflow { ply: u32 },
    #[error(
        "{}: a folder of another run (its root or options differ); give an empty folder or that run's",
        path.display()
    )]
    OtherRun { path: PathBuf },
    #[error("a stored position does not decode: {0}")]
    BadKey(String),
    #[error(
        "ply {ply}: the partitions hold {partitions} paths, the children of the ply before {children}"
    )]
    PathsMismatch {
        ply: u32,
        partitions: u128,
        children: u128,
    },
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

    pub fn corrupt(path: &Path, reason: impl Into<String>) -> UniqueError {
        UniqueError::Corrupt {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }
}
