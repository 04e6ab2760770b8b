//! The backends the run panel offers. The selector lists every entry of
//! [`available_backends`], so GPU devices appear beside the CPU once the engine has them.

use crate::engine::BackendChoice;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BackendSelection {
    Cpu,
}

impl BackendSelection {
    pub fn label(self) -> &'static str {
        match self {
            BackendSelection::Cpu => "CPU",
        }
    }

    pub fn choice(self) -> BackendChoice {
        match self {
            BackendSelection::Cpu => BackendChoice::Cpu,
        }
    }

    /// Whether the thread count applies.
    pub fn uses_threads(self) -> bool {
        match self {
            BackendSelection::Cpu => true,
        }
    }
}

pub fn available_backends() -> Vec<BackendSelection> {
    vec![BackendSelection::Cpu]
}
