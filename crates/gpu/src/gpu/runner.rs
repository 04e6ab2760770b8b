//! The device side of the Vulkan backend: the context, the pipelines, the chunk buffers, the
//! table's state, part pacing and the host's counters. It runs the chunks the scheduler
//! decides on ([`crate::gpu::scheduler::Executor`], `runner/executor.rs`); the other files of
//! `runner/` add its stages (`chunk.rs`), table (`table.rs`, `table_state.rs`), counters
//! (`work.rs`) and diagnostics.

use crate::backend::run_control::RunControl;
use crate::backend::RunError;
use crate::chess::{NybbleBoard, Position};
use crate::count::Counts;
use crate::gpu::chunk_arrays::{SegmentLayout, FIRST_POSITION_VARIABLE, SEGMENT_BYTES_VARIABLE};
use crate::gpu::error::GpuError;
use crate::gpu::layouts::{inner_positions, GpuBoard, PositionLayout};
use crate::gpu::options::{GpuOptions, MAX_WORKGROUPS_VARIABLE};
use crate::gpu::scheduler::ScheduleStats;
use crate::gpu::shader_layout::WORKGROUP_SIZE;
use crate::gpu::slider_attacks::SliderAttacks;
use crate::gpu::tables::table_words;
use crate::gpu::vk::buffer::GpuBuffer;
use crate::gpu::vk::context::{Context, SLOTS};
use crate::gpu::vk::device::DeviceInfo;
use crate::gpu::vk::pipelines::{Bindings, Pipelines, Stage};
use buffers::{write_mapped, ChunkBuffers};
use gpu_allocator::MemoryLocation;
use host_work::HostWork;
use memory::{capacity_for, default_budget, MIN_CAPACITY};
pub use memory::{memory_defaults, MemoryDefaults};
use pacing::PartPacer;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use table_state::TableState;

mod buffers;
mod chunk;
mod diagnostics;
mod executor;
mod host_work;
mod memory;
mod pacing;
mod probe_self_test;
mod table;
mod table_state;
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

pub struct DeviceRunner {
    // Dropped in declaration order: pipelines and buffers before the context.
    pipelines: Pipelines,
    buffers: ChunkBuffers,
    table: TableState,
    /// The attack tables the shaders read (`gpu/tables.rs`).
    ray_tables: GpuBuffer,
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
    /// Sizes the parts of each level's submissions; kept across runs of this device.
    parts: PartPacer,
    /// The host's share of the run's counters.
    host_work: HostWork,
}

impl DeviceRunner {
    /// Opens the device `options` name with its pipelines built, its table checked by the
    /// probe self-test and every stage run once; `None` soon after `cancel` is set: building
    /// the pipelines (over a second on lavapipe, which compiles them when they are created) and
    /// the warm-up look at it between pipelines and between submissions.
    pub fn open(
        options: &GpuOptions,
        cancel: &AtomicBool,
    ) -> Result<Option<DeviceRunner>, GpuError> {
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
        let ray_tables =
            GpuBuffer::new(shared, "ray tables", table_bytes, MemoryLocation::GpuOnly)?;
        let mut tables_upload = GpuBuffer::new(
            shared,
            "table upload",
            table_bytes,
            MemoryLocation::CpuToGpu,
        )?;
        write_mapped(&mut tables_upload, bytemuck::cast_slice(&words))?;
        context.submit_and_wait(|recorder| {
            recorder.copy(&tables_upload, 0, &ray_tables, 0, table_bytes);
        })?;
        drop(tables_upload);

        let buffers = ChunkBuffers::new(shared, segments, capacity, layout)?;
        let table = TableState::new(shared, options.table_split)?;
        let max_workgroups = requested_max_workgroups(options)?
            .map_or(info.max_workgroups, |limit| limit.min(info.max_workgroups));
        let sliders = SliderAttacks::choose(options.slider_attacks, &info)?;
        let Some(pipelines) =
            Pipelines::new(shared, info.supports_tt(), max_workgroups, sliders, cancel)?
        else {
            return Ok(None);
        };
        let mut runner = DeviceRunner {
            pipelines,
            buffers,
            table,
            ray_tables,
            context,
            budget,
            layout,
            capacity: capacity as u32,
            max_workgroups,
            max_groups_x: max_groups_x(max_workgroups, capacity as u32),
            parts: PartPacer::default(),
            host_work: HostWork::default(),
        };
        runner.upload_chunk_arrays()?;
        runner.bind_buffers()?;
        // No table until a run asks for one (`prepare_table` also clears the statistics).
        runner.upload_no_table()?;
        match runner.probe_self_test(options.self_test) {
            Ok(()) => {}
            Err(mismatch @ GpuError::TableProbeMismatch { .. }) => {
                runner.table.distrust = Some(mismatch);
            }
            Err(other) => return Err(other),
        }
        Ok(runner.warm_up(cancel)?.then_some(runner))
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
        self.table.distrust.as_ref().map(ToString::to_string)
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

    /// What this runner counts of the last run's schedule: dispatches and submissions (the
    /// scheduler counts the rest; the Vulkan backend's `schedule_stats` merges the two).
    pub fn executed(&self) -> ScheduleStats {
        ScheduleStats {
            dispatches: self.pipelines.dispatches() - self.host_work.dispatches_before,
            widest_dispatch: self.pipelines.widest_dispatch(),
            submissions: self.host_work.submissions,
            longest_submission: self.host_work.longest_submission,
            ..ScheduleStats::default()
        }
    }

    /// A run begins: its submissions and dispatches are counted from here.
    pub(super) fn begin_divide(&mut self) {
        self.host_work.submissions = 0;
        self.host_work.longest_submission = Duration::ZERO;
        self.host_work.dispatches_before = self.pipelines.dispatches();
        self.pipelines.reset_widest();
    }

    /// Points the pipelines' descriptor set at the current buffers.
    fn bind_buffers(&self) -> Result<(), GpuError> {
        let buffers = &self.buffers;
        let tt = &self.table;
        self.pipelines.bind(
            &self.context,
            &Bindings {
                tables: &self.ray_tables,
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

    /// Whether the chunk buffers keep move-type statistics (a statistics run, or a table
    /// with statistics slots since).
    pub fn counts_move_stats(&self) -> bool {
        self.layout.move_stats
    }

    /// Readies a move-type statistics run: the chunk buffers keep every position's
    /// statistics, and the stages that carry them are built.
    pub(crate) fn prepare_stats_run(&mut self) -> Result<(), GpuError> {
        debug_assert!(
            self.table
                .current
                .as_ref()
                .is_none_or(|table| table.config().move_stats),
            "a statistics run's table is prepared with statistics slots"
        );
        self.use_layout(PositionLayout {
            move_stats: true,
            ..self.layout
        })?;
        for stage in [Stage::ExpandStats, Stage::LeafStats, Stage::UpsweepStats] {
            self.pipelines.add_stage(stage)?;
        }
        Ok(())
    }

    /// A submission of search stages took `took` on the device.
    pub(super) fn record_submission(&mut self, took: Duration) {
        self.host_work.submissions += 1;
        self.host_work.longest_submission = self.host_work.longest_submission.max(took);
        self.host_work.chunk_device_time += took;
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

impl Drop for DeviceRunner {
    /// Submissions may still be running when a run ends early: they finish before any buffer
    /// they use is freed (the fields' drops).
    fn drop(&mut self) {
        for slot in 0..SLOTS {
            let _ = self.context.wait(slot);
        }
    }
}
