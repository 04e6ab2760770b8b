//! Breadth-first perft on the GPU, driven by the host.
//!
//! The host expands the top plies into work items (a position, its root move, its remaining
//! depth). Items of equal remaining depth go to the GPU in chunks. Per chunk, level by level,
//! `expand` appends every position's children after its level (an atomic counter hands out the
//! space, so no prefix scan is needed; each position's children are contiguous); at remaining
//! depth 2 the fused `leaf` stage counts the last two plies without writing them; then
//! `upsweep` sums children into parents, level by level back to the chunk's items. The level the
//! leaf counts is written compact, as (parent, move) leaf entries that the leaf makes again and
//! counts into their parents (`glsl/common/leaf_entry.glsl`).
//!
//! A level that does not fit the memory budget sets an overflow flag; nothing of an overflowed
//! chunk is used. Which items form a chunk, whether it goes whole or in parts, and what follows
//! an overflow is decided by the scheduler (`gpu/scheduler.rs`); the device runner
//! (`gpu/runner.rs`, with the table's state, `runner/table_state.rs`) is its executor on a
//! device (`runner/executor.rs`), as `gpu/twin.rs` is on the CPU. [`VulkanBackend`] owns the
//! two and lends the runner to the scheduler for each run.
//!
//! No submission may keep the device busy for long ([`SUBMISSION_TARGET`]): no submission trips
//! a GPU watchdog, and cancellation, checked before every submission, takes effect within one
//! of them. A chunk submitted whole is one command buffer that records all its levels with
//! indirect dispatches from level sizes kept on the device, and while it runs the host records
//! and queues the next one in a second slot. Other chunks go stage by stage in parts sized from
//! the device's own timestamps (`runner/chunk.rs`, `runner/pacing.rs`).
//!
//! [`SUBMISSION_TARGET`]: super::scheduler::SUBMISSION_TARGET
//!
//! With a transposition table (`tt_table.rs`, `glsl/common/tt.glsl`), expand probes each
//! position before generating its children (a hit gives its counts and no children), the leaf
//! probes and stores depth-2 positions, and upsweep stores every count it completes. Only
//! complete counts are ever stored: overflow can only happen in an expand, before the leaf and
//! upsweep of its chunk run, and each part of a leaf or upsweep stores only counts it completed,
//! so a run cancelled between any two submissions leaves only exact entries behind.

use super::error::GpuError;
use super::options::{GpuOptions, Submissions};
use super::runner::{memory_defaults, DeviceRunner};
use super::scheduler::Scheduler;
use crate::backend::run_control::RunControl;
use crate::backend::{Backend, BackendError, Device, RunError, RunOutcome, RunRequest};
use crate::chess::{Move, Position, Zobrist};
use crate::count::Counts;
use crate::tt::TtConfig;
use crate::work_counters::WorkCounters;
use std::sync::atomic::AtomicBool;

mod move_stats;

pub use super::scheduler::ScheduleStats;

/// The Vulkan backend: the scheduler, which decides the chunks, and the device runner that
/// runs them (with the table's state), kept across runs of the device.
pub struct VulkanBackend {
    /// Decides the chunks; kept across runs of this device.
    scheduler: Scheduler,
    runner: DeviceRunner,
    /// False after the device failed: the engine opens it afresh.
    healthy: bool,
}

impl VulkanBackend {
    /// Opens the device `options` name, with its pipelines built and run once.
    pub fn new(options: &GpuOptions) -> Result<VulkanBackend, GpuError> {
        let never = AtomicBool::new(false);
        Ok(VulkanBackend::open(options, &never)?.expect("nothing cancels the opening"))
    }

    /// As [`VulkanBackend::new`], or `None` soon after `cancel` is set (see
    /// [`DeviceRunner::open`]).
    pub fn open(
        options: &GpuOptions,
        cancel: &AtomicBool,
    ) -> Result<Option<VulkanBackend>, GpuError> {
        let Some(runner) = DeviceRunner::open(options, cancel)? else {
            return Ok(None);
        };
        let submissions = options.submissions.resolve(runner.device_info());
        Ok(Some(VulkanBackend {
            scheduler: Scheduler::new(submissions),
            runner,
            healthy: true,
        }))
    }

    /// The device side: buffers, table, diagnostics.
    pub fn runner(&self) -> &DeviceRunner {
        &self.runner
    }

    pub fn runner_mut(&mut self) -> &mut DeviceRunner {
        &mut self.runner
    }

    /// When chunks go whole (never `Auto`: resolved for the device).
    pub fn submissions(&self) -> Submissions {
        self.scheduler.submissions()
    }

    /// How the last run was scheduled: the scheduler's decisions and what the runner ran.
    pub fn schedule_stats(&self) -> ScheduleStats {
        let executed = self.runner.executed();
        ScheduleStats {
            dispatches: executed.dispatches,
            widest_dispatch: executed.widest_dispatch,
            submissions: executed.submissions,
            longest_submission: executed.longest_submission,
            ..self.scheduler.stats()
        }
    }

    /// Sets up the table of the next runs (see [`DeviceRunner::prepare_table`]); after an
    /// error the shaders point at no table, and a device failure marks the backend unhealthy.
    pub fn prepare_table(&mut self, config: &TtConfig, zobrist: &Zobrist) -> Result<(), GpuError> {
        let prepared = self.runner.prepare_table(config, zobrist);
        if let Err(error) = &prepared {
            self.healthy &= !error.is_device_failure();
            if let Err(error) = self.runner.drop_table() {
                self.healthy = false;
                return Err(error);
            }
        }
        prepared
    }

    /// The counters of the last run (or of the one running, the device's as of its newest
    /// finished chunk).
    pub fn work_counters(&self) -> Result<WorkCounters, GpuError> {
        let tt = self.runner.tt_snapshot()?;
        self.runner
            .work_counters_during(tt.as_ref(), &self.schedule_stats())
    }

    /// The outcome of the search that just gave `divide`: the table's statistics and the
    /// work counters as it left them.
    fn outcome_of(&self, divide: Vec<(Move, Counts)>) -> Result<RunOutcome, RunError> {
        let tt = self.runner.tt_snapshot()?;
        let work = self
            .runner
            .work_counters_during(tt.as_ref(), &self.schedule_stats())?;
        Ok(RunOutcome { divide, tt, work })
    }

    /// Perft of `root` to `depth`, per root move in generation order: the scheduler decides
    /// the chunks, the runner runs them.
    pub fn divide(
        &mut self,
        root: &Position,
        depth: u32,
        control: &RunControl<'_>,
    ) -> Result<Vec<(Move, Counts)>, RunError> {
        self.runner.begin_divide();
        self.scheduler
            .divide(&mut self.runner, root, depth, control)
    }
}

impl Backend for VulkanBackend {
    fn device(&self, _request: &RunRequest) -> Device {
        Device::Vulkan {
            name: self.runner.device_name().to_string(),
        }
    }

    fn prepare(&mut self, config: &TtConfig, zobrist: &Zobrist) -> Result<(), BackendError> {
        Ok(self.prepare_table(config, zobrist)?)
    }

    fn default_table_bytes(&self) -> Option<usize> {
        let bytes = memory_defaults(self.runner.device_info()).table_bytes?;
        Some(usize::try_from(bytes).unwrap_or(usize::MAX))
    }

    fn run(
        &mut self,
        request: &RunRequest,
        control: &RunControl<'_>,
    ) -> Result<RunOutcome, RunError> {
        let outcome = if request.move_stats || self.runner.counts_move_stats() {
            self.run_with_stats(request, control)
        } else {
            self.divide(&request.position, request.depth, control)
                .and_then(|divide| self.outcome_of(divide))
        };
        if matches!(outcome, Err(RunError::Failed(_))) {
            self.healthy = false;
        }
        outcome
    }

    fn is_healthy(&self) -> bool {
        self.healthy
    }
}
