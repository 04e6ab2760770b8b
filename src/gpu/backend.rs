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
//! an overflow is decided by the scheduler (`gpu/scheduler.rs`); this backend is its executor
//! on a device (`backend/executor.rs`), as `gpu/twin.rs` is on the CPU.
//!
//! No submission may keep the device busy for long ([`SUBMISSION_TARGET`]): no submission trips
//! a GPU watchdog, and cancellation, checked before every submission, takes effect within one
//! of them. A chunk submitted whole is one command buffer that records all its levels with
//! indirect dispatches from level sizes kept on the device, and while it runs the host records
//! and queues the next one in a second slot. Other chunks go stage by stage in parts sized from
//! the device's own timestamps (`backend/chunk.rs`, `backend/pacing.rs`).
//!
//! [`SUBMISSION_TARGET`]: super::scheduler::SUBMISSION_TARGET
//!
//! With a transposition table (`tt_table.rs`, `glsl/common/tt.glsl`), expand probes each
//! position before generating its children (a hit gives its counts and no children), the leaf
//! probes and stores depth-2 positions, and upsweep stores every count it completes. Only
//! complete counts are ever stored: overflow can only happen in an expand, before the leaf and
//! upsweep of its chunk run, and each part of a leaf or upsweep stores only counts it completed,
//! so a run cancelled between any two submissions leaves only exact entries behind.

use super::chunk_arrays::{SegmentLayout, FIRST_POSITION_VARIABLE, SEGMENT_BYTES_VARIABLE};
use super::error::GpuError;
use super::layouts::{inner_positions, GpuBoard, PositionLayout};
use super::options::{GpuOptions, Submissions, MAX_WORKGROUPS_VARIABLE};
use super::scheduler::Scheduler;
use super::shader_layout::WORKGROUP_SIZE;
use super::slider_attacks::SliderAttacks;
use super::tables::table_words;
use super::vk::buffer::GpuBuffer;
use super::vk::context::Context;
use super::vk::context::SLOTS;
use super::vk::device::DeviceInfo;
use super::vk::pipelines::{Bindings, Pipelines};
use crate::backend::plan::WorkItem;
use crate::backend::run_control::RunControl;
use crate::backend::{Backend, BackendError, Device, RunError, RunOutcome, RunRequest};
use crate::chess::{Move, NybbleBoard, Position, Zobrist};
use crate::count::Counts;
use crate::tt::{TableSplit, TtConfig};
use buffers::{write_mapped, ChunkBuffers, TtBuffers};
use gpu_allocator::MemoryLocation;
use host_work::HostWork;
use memory::{capacity_for, default_budget, MIN_CAPACITY};
pub use memory::{memory_defaults, MemoryDefaults};
use pacing::PartPacer;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

mod buffers;
mod chunk;
mod diagnostics;
mod executor;
mod host_work;
mod memory;
mod move_stats;
mod pacing;
mod probe_self_test;
mod table;
mod work;

/// The workgroup limit `options` or the environment ask for, if any.
fn requested_max_workgroups(options: &GpuOptions) -> Result<Option<u32>, GpuError> {
    if options.max_workgroups.is_some() {
        return Ok(options.max_workgroups);
    }
    match std::env::var(MAX_WORKGROUPS_VARIABLE) {
        Err(_) => Ok(None),
        Ok(text) => match text.trim().parse::<u32>() {
            Ok(limit) if limit > 0 => Ok(Some(limit)),
            _ => Err(GpuError::BadOverride {
                variable: MAX_WORKGROUPS_VARIABLE,
                expected: "a positive whole number",
                value: text,
            }),
        },
    }
}

pub use super::scheduler::ScheduleStats;

pub struct VulkanBackend {
    // Dropped in declaration order: pipelines and buffers before the context.
    pipelines: Pipelines,
    buffers: ChunkBuffers,
    tt: TtBuffers,
    tables: GpuBuffer,
    context: Context,
    /// Device memory for the chunk buffers.
    budget: u64,
    /// What the chunk buffers keep per position (as the table mode of the next run needs).
    layout: PositionLayout,
    capacity: u32,
    /// Workgroups of one dispatch (the device's limit, or a lower one asked for).
    max_workgroups: u32,
    /// Workgroups along x of an indirect dispatch (more go along y).
    max_groups_x: u32,
    /// The table's statistics words (`glsl/common/tt_stats.glsl`) summed over the chunks that
    /// counted: each chunk starts them at zero on the device, and they are added here after it
    /// unless it overflowed (its results, and so its probes, are thrown away).
    tt_counts: Vec<u64>,
    /// Device time of the submissions of the chunk in parts being run.
    chunk_device_time: Duration,
    /// Decides the chunks; kept across runs of this device (taken out while it runs one).
    scheduler: Scheduler,
    /// Sizes the parts of each level's submissions; kept across runs of this device.
    parts: PartPacer,
    table_split: TableSplit,
    /// What the executor counts of the last run: submissions and the longest of them.
    executed: ScheduleStats,
    /// Dispatches recorded before the last run began.
    dispatches_before_run: u64,
    /// The host's share of the run's work counters.
    host_work: HostWork,
    /// False after the device failed: the engine opens it afresh.
    healthy: bool,
    /// Why the table cannot be trusted on this device (its probe disagreed with the CPU's at
    /// the opening): table modes are refused with it, `--tt off` still runs.
    table_distrust: Option<GpuError>,
}

impl VulkanBackend {
    /// Opens the device `options` name, with its pipelines built and run once.
    pub fn new(options: &GpuOptions) -> Result<VulkanBackend, GpuError> {
        let never = AtomicBool::new(false);
        Ok(VulkanBackend::open(options, &never)?.expect("nothing cancels the opening"))
    }

    /// As [`VulkanBackend::new`], or `None` soon after `cancel` is set: building the pipelines
    /// (over a second on lavapipe, which compiles them when they are created) and the warm-up
    /// look at it between pipelines and between submissions.
    pub fn open(
        options: &GpuOptions,
        cancel: &AtomicBool,
    ) -> Result<Option<VulkanBackend>, GpuError> {
        let context = Context::new(options.device)?;
        let info = context.info().clone();
        let budget = options
            .memory_budget
            .unwrap_or_else(|| default_budget(&info));
        // The options' knobs, else the environment's.
        let segments = SegmentLayout::with_overrides(info.max_memory_allocation_size, |name| {
            let asked = match name {
                SEGMENT_BYTES_VARIABLE => {
                    options.chunk_segment_bytes.map(|bytes| bytes.to_string())
                }
                _ => options.chunk_first_position.map(|first| first.to_string()),
            };
            asked.or_else(|| std::env::var(name).ok())
        })?;
        // A chunk's first position past what its segments reach leaves no room.
        if segments.max_capacity(MIN_CAPACITY, PositionLayout::FULL) < MIN_CAPACITY {
            return Err(GpuError::BadOverride {
                variable: FIRST_POSITION_VARIABLE,
                expected: "a first position that leaves room for a chunk in 512 segments per array",
                value: segments.first_position.to_string(),
            });
        }
        // Every table mode must fit: the budget is checked with every buffer.
        if capacity_for(budget, PositionLayout::FULL, segments) < MIN_CAPACITY {
            return Err(GpuError::BudgetTooSmall {
                mb: budget >> 20,
                needed_mb: (MIN_CAPACITY * PositionLayout::FULL.bytes()).div_ceil(1 << 20),
            });
        }
        // No table until a run asks for one.
        let layout = PositionLayout::PLAIN;
        let capacity = capacity_for(budget, layout, segments);
        let shared = &context.shared;
        let words = table_words();
        let table_bytes = (words.len() * size_of::<u64>()) as u64;
        let tables = GpuBuffer::new(shared, "ray tables", table_bytes, MemoryLocation::GpuOnly)?;
        let mut tables_upload = GpuBuffer::new(
            shared,
            "table upload",
            table_bytes,
            MemoryLocation::CpuToGpu,
        )?;
        write_mapped(&mut tables_upload, bytemuck::cast_slice(&words))?;
        context.submit_and_wait(|recorder| {
            recorder.copy(&tables_upload, 0, &tables, 0, table_bytes);
        })?;
        drop(tables_upload);

        let buffers = ChunkBuffers::new(shared, segments, capacity, layout)?;
        let tt = TtBuffers::new(shared)?;
        let max_workgroups = requested_max_workgroups(options)?
            .map_or(info.max_workgroups, |limit| limit.min(info.max_workgroups));
        let sliders = SliderAttacks::choose(options.slider_attacks, &info)?;
        let Some(pipelines) =
            Pipelines::new(shared, info.supports_tt(), max_workgroups, sliders, cancel)?
        else {
            return Ok(None);
        };
        let mut backend = VulkanBackend {
            pipelines,
            buffers,
            tt,
            tables,
            context,
            budget,
            layout,
            capacity: capacity as u32,
            max_workgroups,
            max_groups_x: max_groups_x(max_workgroups, capacity as u32),
            tt_counts: Vec::new(),
            chunk_device_time: Duration::ZERO,
            scheduler: Scheduler::new(options.submissions.resolve(&info)),
            parts: PartPacer::default(),
            table_split: options.table_split,
            executed: ScheduleStats::default(),
            dispatches_before_run: 0,
            host_work: HostWork::default(),
            healthy: true,
            table_distrust: None,
        };
        backend.upload_chunk_arrays()?;
        backend.bind_buffers()?;
        // No table until a run asks for one (`prepare_table` also clears the statistics).
        backend.upload_no_table()?;
        match backend.probe_self_test(options.self_test) {
            Ok(()) => {}
            Err(mismatch @ GpuError::TableProbeMismatch { .. }) => {
                backend.table_distrust = Some(mismatch);
            }
            Err(other) => return Err(other),
        }
        Ok(backend.warm_up(cancel)?.then_some(backend))
    }

    /// Runs every search stage once, in parts and whole: drivers such as lavapipe compile a
    /// pipeline at its first dispatch, which would otherwise be timed as part of the first run.
    /// False when `cancel` stopped it.
    fn warm_up(&mut self, cancel: &AtomicBool) -> Result<bool, GpuError> {
        let start = GpuBoard::from(NybbleBoard::from_position(&Position::startpos()));
        let control = RunControl {
            cancel,
            progress_interval: Duration::MAX,
            on_progress: &|_| {},
            on_root_done: &|_, _| {},
        };
        let in_parts = match self.run_chunk_in_parts(&[start], 3, &control) {
            Ok(counts) => counts,
            Err(RunError::Cancelled) => return Ok(false),
            Err(RunError::Failed(err)) => {
                return Err(match err.device::<GpuError>() {
                    Some(err) => err.clone(),
                    None => unreachable!("the warm-up fails only on the device: {err:?}"),
                })
            }
        };
        self.submit_whole_chunk(0, &[start], 3, self.capacity)?;
        self.context.wait(0)?;
        let whole = self.chunk_counts(0, 1, 3)?;
        for counts in [in_parts, whole] {
            if counts.as_deref() != Some(&[Counts::exact(8_902)]) {
                return Err(GpuError::WarmUpMismatch {
                    counts: format!("{counts:?}"),
                });
            }
        }
        Ok(true)
    }

    pub fn device_name(&self) -> &str {
        &self.context.info().name
    }

    pub fn device_info(&self) -> &DeviceInfo {
        self.context.info()
    }

    /// Whether this device runs the TT modes (see `vkperft devices`).
    pub fn supports_tt(&self) -> bool {
        self.table_refusal().is_none()
    }

    /// Why this device runs no table, in words: features it lacks, or its probe's disagreement
    /// with the CPU's at the opening; `None` when it runs them.
    pub fn table_refusal(&self) -> Option<String> {
        let info = self.context.info();
        if !info.supports_tt() {
            return Some(format!(
                "{} lacks {}",
                info.name,
                info.tt_missing.join(", ")
            ));
        }
        self.table_distrust.as_ref().map(ToString::to_string)
    }

    /// When chunks go whole (never `Auto`: resolved for the device).
    pub fn submissions(&self) -> Submissions {
        self.scheduler.submissions()
    }

    /// Positions a chunk's levels can hold together.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Positions the levels before a chunk's compact leaf level can hold together.
    pub fn inner_capacity(&self) -> u32 {
        inner_positions(u64::from(self.capacity)) as u32
    }

    /// The index of a chunk's first position (0 unless [`FIRST_POSITION_VARIABLE`] moves it).
    pub fn first_position(&self) -> u32 {
        self.buffers.arrays.layout().first_position
    }

    /// Segments the chunk arrays have, all arrays together.
    pub fn chunk_segments(&self) -> usize {
        self.buffers.arrays.segments()
    }

    /// Uploads the `ChunkArrays` block of the current chunk buffers.
    fn upload_chunk_arrays(&self) -> Result<(), GpuError> {
        let arrays = &self.buffers.arrays;
        self.upload(&arrays.block, &arrays.block_bytes())
    }

    /// How the last run was scheduled.
    pub fn schedule_stats(&self) -> ScheduleStats {
        ScheduleStats {
            dispatches: self.pipelines.dispatches() - self.dispatches_before_run,
            widest_dispatch: self.pipelines.widest_dispatch(),
            submissions: self.executed.submissions,
            longest_submission: self.executed.longest_submission,
            ..self.scheduler.stats()
        }
    }

    /// Points the pipelines' descriptor set at the current buffers.
    fn bind_buffers(&self) -> Result<(), GpuError> {
        let buffers = &self.buffers;
        let tt = &self.tt;
        self.pipelines.bind(
            &self.context,
            &Bindings {
                tables: &self.tables,
                chunk_arrays: &buffers.arrays.block,
                control: &buffers.control,
                tt_params: &tt.params,
                zobrist: &tt.zobrist,
                tt_stats: &tt.stats,
                work: &buffers.work,
            },
        )
    }

    /// Sizes the chunk buffers for `layout`: as many positions as the budget holds with what
    /// it keeps. The new buffers are allocated before the old ones are freed, so a failure
    /// leaves the backend as it was.
    pub(super) fn use_layout(&mut self, layout: PositionLayout) -> Result<(), GpuError> {
        if layout == self.layout {
            return Ok(());
        }
        let segments = self.buffers.arrays.layout();
        let capacity = capacity_for(self.budget, layout, segments);
        // The node counts' layouts were checked at the opening; a statistics run's is larger.
        if capacity < MIN_CAPACITY {
            return Err(GpuError::BudgetTooSmall {
                mb: self.budget >> 20,
                needed_mb: (MIN_CAPACITY * layout.bytes()).div_ceil(1 << 20),
            });
        }
        self.context.wait_all()?;
        let buffers = ChunkBuffers::new(&self.context.shared, segments, capacity, layout)?;
        self.buffers = buffers;
        self.upload_chunk_arrays()?;
        self.bind_buffers()?;
        self.layout = layout;
        self.capacity = capacity as u32;
        self.max_groups_x = max_groups_x(self.max_workgroups, self.capacity);
        Ok(())
    }

    /// A submission of search stages took `took` on the device.
    fn record_submission(&mut self, took: Duration) {
        self.executed.submissions += 1;
        self.executed.longest_submission = self.executed.longest_submission.max(took);
        self.chunk_device_time += took;
    }

    /// The outcome of the search that just gave `divide`: the table's statistics and the
    /// work counters as it left them.
    fn outcome_of(&self, divide: Vec<(Move, Counts)>) -> Result<RunOutcome, RunError> {
        let tt = self.tt_snapshot()?;
        let work = self.work_counters_with(tt.as_ref())?;
        Ok(RunOutcome { divide, tt, work })
    }

    /// Perft of `root` to `depth`, per root move in generation order.
    pub fn divide(
        &mut self,
        root: &Position,
        depth: u32,
        control: &RunControl<'_>,
    ) -> Result<Vec<(Move, Counts)>, RunError> {
        self.executed = ScheduleStats::default();
        self.dispatches_before_run = self.pipelines.dispatches();
        self.pipelines.reset_widest();
        let mut scheduler = std::mem::take(&mut self.scheduler);
        let divided = scheduler.divide(self, root, depth, control);
        self.scheduler = scheduler;
        divided
    }
}

/// Workgroups along x of an indirect dispatch: at most `max_workgroups`, unless a level of
/// `capacity` positions needs more to stay within the 65,535 rows every device takes along y.
fn max_groups_x(max_workgroups: u32, capacity: u32) -> u32 {
    max_workgroups.max(
        capacity
            .div_ceil(WORKGROUP_SIZE)
            .div_ceil(u32::from(u16::MAX)),
    )
}

/// The boards of `items`, as the GPU reads them.
fn boards_of(items: &[WorkItem]) -> Vec<GpuBoard> {
    items
        .iter()
        .map(|item| NybbleBoard::from_position(&item.position).into())
        .collect()
}

impl Drop for VulkanBackend {
    /// Submissions may still be running when a run ends early: they finish before any buffer
    /// they use is freed (the fields' drops).
    fn drop(&mut self) {
        for slot in 0..SLOTS {
            let _ = self.context.wait(slot);
        }
    }
}

impl Backend for VulkanBackend {
    fn device(&self, _request: &RunRequest) -> Device {
        Device::Vulkan {
            name: self.device_name().to_string(),
        }
    }

    fn prepare(&mut self, config: &TtConfig, zobrist: &Zobrist) -> Result<(), BackendError> {
        Ok(self.prepare_table(config, zobrist)?)
    }

    fn default_table_bytes(&self) -> Option<usize> {
        let bytes = memory_defaults(self.context.info()).table_bytes?;
        Some(usize::try_from(bytes).unwrap_or(usize::MAX))
    }

    fn run(
        &mut self,
        request: &RunRequest,
        control: &RunControl<'_>,
    ) -> Result<RunOutcome, RunError> {
        let outcome = if request.move_stats || self.layout.move_stats {
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
