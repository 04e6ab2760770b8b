//! Why a backend set up no table or finished no run. The contract names the table's errors,
//! which it knows; a device's own errors travel boxed, and the layer above that knows the
//! backend's error type takes them back out (`BackendError::device`).

use super::run_control::Cancelled;
use crate::tt::TtError;
use std::error::Error;
use thiserror::Error;

/// A backend's failure.
#[derive(Debug, Error)]
pub enum BackendError {
    #[error(transparent)]
    Table(#[from] TtError),
    /// The device failed (out of memory, lost, timed out, unsuitable).
    #[error(transparent)]
    Device(Box<dyn Error + Send + Sync>),
    /// The backend cannot compute what was asked (what, in words).
    #[error("{0}")]
    Unsupported(&'static str),
}

impl BackendError {
    /// A device's failure of type `E`, if this is one.
    pub fn device<E: Error + 'static>(&self) -> Option<&E> {
        match self {
            BackendError::Device(error) => error.downcast_ref(),
            BackendError::Table(_) | BackendError::Unsupported(_) => None,
        }
    }
}

/// Why a run produced no result.
#[derive(Debug)]
pub enum RunError {
    Cancelled,
    Failed(BackendError),
}

impl From<BackendError> for RunError {
    fn from(error: BackendError) -> RunError {
        RunError::Failed(error)
    }
}

impl From<TtError> for RunError {
    fn from(error: TtError) -> RunError {
        RunError::Failed(error.into())
    }
}

impl From<Cancelled> for RunError {
    fn from(_: Cancelled) -> RunError {
        RunError::Cancelled
    }
}
