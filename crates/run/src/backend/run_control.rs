//! What a backend gets to report progress and to be cancelled, and what it reports.

use crate::chess::Move;
use crate::count::Counts;
use crate::tt::TtStatsSnapshot;
use crate::work_counters::WorkCounters;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What a running perft reports.
#[derive(Clone, Debug)]
pub struct ProgressSample {
    /// Leaves counted by finished tasks.
    pub nodes: u128,
    pub tasks_done: usize,
    pub tasks_total: usize,
    /// The statistics of a transposition table that the backend keeps itself (the GPU's);
    /// `None` when there is none or the caller reads the table directly (the CPU's).
    pub tt: Option<TtStatsSnapshot>,
    /// The work counters so far, where the backend keeps them live.
    pub work: Option<WorkCounters>,
}

/// Hooks and limits of one run.
pub struct RunControl<'a> {
    pub cancel: &'a AtomicBool,
    pub progress_interval: Duration,
    pub on_progress: &'a (dyn Fn(ProgressSample) + Sync),
    pub on_root_done: &'a (dyn Fn(Move, Counts) + Sync),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;
