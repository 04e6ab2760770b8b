//! The seam between a job and where it runs: what every backend (the CPU, a Vulkan device)
//! offers the engine, and what hands the engine the backend for a job.

use super::event::EngineError;
use super::job::Job;
use crate::chess::{Move, Zobrist};
use crate::count::Counts;
use crate::run_control::{Cancelled, RunControl};
use crate::tt::{TtConfig, TtStatsSnapshot};
use crate::work_counters::WorkCounters;
use std::sync::atomic::AtomicBool;

/// Why a run produced no result.
#[derive(Debug)]
pub enum RunError {
    Cancelled,
    Failed(EngineError),
}

impl From<EngineError> for RunError {
    fn from(error: EngineError) -> RunError {
        RunError::Failed(error)
    }
}

impl From<crate::gpu::error::GpuError> for RunError {
    fn from(error: crate::gpu::error::GpuError) -> RunError {
        RunError::Failed(error.into())
    }
}

impl From<Cancelled> for RunError {
    fn from(_: Cancelled) -> RunError {
        RunError::Cancelled
    }
}

/// What a finished run computed.
#[derive(Debug)]
pub struct RunOutcome {
    /// Counts per root move, in generation order (empty at depth 0).
    pub divide: Vec<(Move, Counts)>,
    /// The table's final statistics (none for `off`).
    pub tt: Option<TtStatsSnapshot>,
    /// What the run did, in positions, probes and submissions.
    pub work: WorkCounters,
}

/// A place where perft runs. A backend owns its transposition table.
pub trait Backend: Send {
    /// `cpu` or `vulkan`.
    fn kind(&self) -> &'static str;

    /// What runs `job`, for people: the thread count or the device name.
    fn runs_on(&self, job: &Job) -> String;

    /// Sets up the table of the next runs: none for `off`, else an empty table of `config`
    /// with the keys of `zobrist`, and zeroed statistics. After an error the backend has no
    /// table and stays usable.
    fn prepare(&mut self, config: &TtConfig, zobrist: &Zobrist) -> Result<(), EngineError>;

    /// The table size for a job that chose none; `None`: the job's default
    /// ([`DEFAULT_TT_MB`](super::job::DEFAULT_TT_MB)).
    fn default_table_bytes(&self) -> Option<usize> {
        None
    }

    /// Perft of the job's position to its depth through the prepared table, reporting
    /// progress and finished root moves to `control` and stopping when it is cancelled.
    fn run(&mut self, job: &Job, control: &RunControl<'_>) -> Result<RunOutcome, RunError>;

    /// False once the backend cannot be trusted with another job (a lost device): the next
    /// job gets a fresh one.
    fn is_healthy(&self) -> bool {
        true
    }
}

/// The backend a job runs on, once `auto` is resolved.
pub struct Resolved<'a> {
    pub backend: &'a mut dyn Backend,
    /// For `auto`: which backend was chosen and why.
    pub note: Option<String>,
}

/// Hands the engine the backend for each job, keeping backends open between jobs (opening a
/// Vulkan device and building its pipelines is slow).
pub trait BackendProvider: Send {
    /// The backend for `job`, opened if need be; `Cancelled` if `cancel` is set while a device
    /// opens.
    fn backend_for(&mut self, job: &Job, cancel: &AtomicBool) -> Result<Resolved<'_>, RunError>;

    /// Drops every open backend; the next job opens afresh. Called after a job panicked,
    /// when a backend may be in any state.
    fn reset(&mut self);

    /// Whether the backend for `job` holds the table of the last job that finished, and that
    /// job had the same backend, table and seed: a job with `keep_table` then skips
    /// `prepare`. Providers that do not track this keep nothing.
    fn holds_table_for(&self, _job: &Job) -> bool {
        false
    }

    /// Records whether the last job finished (`Some`) with its table whole, or not (`None`:
    /// failed, cancelled, or about to prepare a new table).
    fn set_finished_table(&mut self, _job: Option<&Job>) {}
}
