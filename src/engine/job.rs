//! What to compute.

use crate::chess::Position;
use crate::gpu::GpuOptions;
use crate::tt::TtConfig;

/// The deepest perft accepted: far beyond what finishes, and within the Zobrist depth keys.
pub const MAX_DEPTH: u32 = 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobId(pub u64);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendChoice {
    Cpu,
    Vulkan,
    /// Vulkan if a usable device exists (and the job needs nothing it lacks), else the CPU.
    Auto,
}

impl BackendChoice {
    pub fn name(self) -> &'static str {
        match self {
            BackendChoice::Cpu => "cpu",
            BackendChoice::Vulkan => "vulkan",
            BackendChoice::Auto => "auto",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Job {
    pub id: JobId,
    pub position: Position,
    pub depth: u32,
    pub backend: BackendChoice,
    /// CPU threads; at least 1.
    pub threads: usize,
    pub zobrist_seed: u64,
    /// Mode, size and verifier width of the transposition table (none for `off`).
    pub tt: TtConfig,
    /// Device and memory budget for the Vulkan backend.
    pub gpu: GpuOptions,
}
