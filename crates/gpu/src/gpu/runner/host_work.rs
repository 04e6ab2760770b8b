//! What the host counts of a run beside the device's work counters (`work.rs` reads both).

use crate::work_counters::ChunkWork;
use std::time::Duration;

/// What the host counts of a run, beside the device's counters.
#[derive(Clone, Debug, Default)]
pub(super) struct HostWork {
    pub chunks: ChunkWork,
    pub items: u64,
    pub launch_depth: u32,
    /// A perft of depth 1: the plan counted the root's moves, the run's one count-op.
    pub counted_the_root: bool,
    /// The context's host waits and the pipelines' dispatches before the run.
    pub waits_before: u64,
    pub dispatches_before: u64,
    /// The slot whose work readback is the newest.
    pub slot: usize,
    /// Positions in every level of the last chunk counted, its items included.
    pub last_chunk_positions: u64,
    /// Submissions of search stages, and the longest of them on the device.
    pub submissions: u64,
    pub longest_submission: Duration,
    /// Device time of the submissions of the chunk in parts being run.
    pub chunk_device_time: Duration,
}
