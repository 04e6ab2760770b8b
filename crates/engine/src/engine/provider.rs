//! What hands the engine the backend for a job.

use super::job::Job;
use crate::backend::{Backend, BackendKind, RunError};
use crate::gpu::DeviceInfo;
use std::sync::atomic::AtomicBool;

/// The backend a job runs on, once `auto` is resolved.
pub struct Resolved<'a> {
    pub backend: &'a mut dyn Backend,
    /// For `auto`: which backend was chosen and why.
    pub note: Option<String>,
    /// Whether `backend` holds the table of the last job that finished, and that job ran on
    /// the same kind of backend with the same table and seed: a job with `keep_table` then
    /// skips `prepare`.
    pub holds_table: bool,
}

/// Hands the engine the backend for each job, keeping backends open between jobs (opening a
/// Vulkan device and building its pipelines is slow).
pub trait BackendProvider: Send {
    /// The backend for `job`, opened if need be; `Cancelled` if `cancel` is set while a device
    /// opens. Until [`table_finished`](Self::table_finished) is called again, no later job
    /// counts on the table of an earlier one.
    fn backend_for(&mut self, job: &Job, cancel: &AtomicBool) -> Result<Resolved<'_>, RunError>;

    /// Drops every open backend; the next job opens afresh. Called after a job panicked,
    /// when a backend may be in any state.
    fn reset(&mut self);

    /// This machine's Vulkan devices (usable or not), listed once: listing costs a Vulkan
    /// instance. Providers without devices list none.
    fn devices(&mut self) -> Vec<DeviceInfo> {
        Vec::new()
    }

    /// Records that `job` finished on a backend of `kind`, its table whole. Providers that do
    /// not track tables keep nothing.
    fn table_finished(&mut self, _job: &Job, _kind: BackendKind) {}
}
