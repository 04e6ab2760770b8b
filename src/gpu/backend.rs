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
//! A level that does not fit the memory budget sets an overflow flag: the chunk is halved and
//! redone, and a single item that still does not fit is expanded one ply on the host. Nothing
//! of an overflowed chunk is used. Chunk sizes adapt so that each takes a fraction of a second:
//! progress is reported between chunks.
//!
//! No submission may keep the device busy for long ([`pacing::SUBMISSION_TARGET`],
//! `backend/pacing.rs`): no submission trips a GPU watchdog, and cancellation, checked before
//! every submission, takes effect within one of them. A chunk whose device time, estimated from
//! the last chunk of the same depth, fits a submission goes whole: one command buffer records
//! all its levels with indirect dispatches from level sizes kept on the device, and while it
//! runs the host records and queues the next one in a second slot. Other chunks go stage by
//! stage in parts sized from the device's own timestamps (`backend/chunk.rs`).
//!
//! With a transposition table (`tt_table.rs`, `glsl/common/tt.glsl`), expand probes each
//! position before generating its children (a hit gives its counts and no children), the leaf
//! probes and stores depth-2 positions, and upsweep stores every count it completes. Only
//! complete counts are ever stored: overflow can only happen in an expand, before the leaf and
//! upsweep of its chunk run, and each part of a leaf or upsweep stores only counts it completed,
//! so a run cancelled between any two submissions leaves only exact entries behind.

use super::buffer::{record_copy, GpuBuffer};
use super::context::Context;
use super::context::SLOTS;
use super::device::DeviceInfo;
use super::error::GpuError;
use super::layouts::{inner_positions, GpuBoard, PositionLayout};
use super::options::{GpuOptions, Submissions, MAX_WORKGROUPS_VARIABLE};
use super::pipelines::{Bindings, Pipelines};
use super::shader_layout::{MAX_LEVELS, WORKGROUP_SIZE};
use super::slider_attacks::SliderAttacks;
use super::tables::table_words;
use crate::backend::plan::{Plan, Tally, WorkItem};
use crate::backend::run_control::{Cancelled, RunControl};
use crate::backend::{Backend, BackendError, Device, RunError, RunOutcome, RunRequest};
use crate::chess::{Move, NybbleBoard, Position, Zobrist};
use crate::count::Counts;
use crate::tt::{TableSplit, TtConfig, TtMode};
use buffers::{write_mapped, ChunkBuffers, TtBuffers, ITEMS_SHARE};
use gpu_allocator::MemoryLocation;
use host_work::HostWork;
use memory::{capacity_for, default_budget, MIN_CAPACITY};
pub use memory::{memory_defaults, MemoryDefaults};
use pacing::Pacer;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod buffers;
mod chunk;
mod diagnostics;
mod host_work;
mod memory;
mod pacing;
mod probe_self_test;
mod table;
mod work;

/// The host expands at most this many items (about 150 bytes each) before the GPU takes over.
const MAX_HOST_ITEMS: usize = 1 << 20;
/// The launch depth leaves room for at least this many items in a chunk ...
const ITEMS_PER_CHUNK_AT_LAUNCH: f64 = 16.0;
/// ... within this share of the chunk buffers (1 / this), so that overflows are rare.
const LAUNCH_CAPACITY_SHARE: f64 = 2.0;
/// A chunk should take about this long, so progress and cancellation stay responsive.
const CHUNK_TARGET: Duration = Duration::from_millis(150);
/// Chunks start at one item per run and grow while they are fast: items of a deep run can be
/// large, and the first chunk must not delay progress or cancellation.
const FIRST_CHUNK_ITEMS: usize = 1;

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

/// How the last run was scheduled: what the memory budget forced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScheduleStats {
    /// Chunks whose counts were used.
    pub chunks: u64,
    /// Chunks redone smaller because a level did not fit.
    pub overflows: u64,
    /// Single items that did not fit and were expanded one ply on the host.
    pub host_splits: u64,
    /// Compute dispatches recorded (a level over the workgroup limit takes several).
    pub dispatches: u64,
    /// The most workgroups of a dispatch sized on the host (a level in parts; whole chunks
    /// read their sizes on the device).
    pub widest_dispatch: u32,
    /// Chunks that went to the device whole, in one submission.
    pub whole_chunks: u64,
    /// Submissions of search stages (a whole chunk takes one, a level in parts one per part).
    pub submissions: u64,
    /// The longest of them on the device.
    pub longest_submission: Duration,
}

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
    /// The table's statistics words (`glsl/common/tt.glsl`) summed over the chunks that
    /// counted: each chunk starts them at zero on the device, and they are added here after it
    /// unless it overflowed (its results, and so its probes, are thrown away).
    tt_counts: Vec<u64>,
    /// Device time of the submissions of the chunk in parts being run.
    chunk_device_time: Duration,
    /// Items per chunk; adapted from chunk to chunk.
    chunk_items: usize,
    /// Sizes the parts of each level's submissions; kept across runs of this device.
    pacer: Pacer,
    submissions: Submissions,
    table_split: TableSplit,
    schedule: ScheduleStats,
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
        // Every table mode must fit: the budget is checked with every buffer.
        if capacity_for(&info, budget, PositionLayout::FULL) < MIN_CAPACITY {
            return Err(GpuError::BudgetTooSmall {
                mb: budget >> 20,
                needed_mb: (MIN_CAPACITY * PositionLayout::FULL.bytes()).div_ceil(1 << 20),
            });
        }
        // No table until a run asks for one.
        let layout = PositionLayout::for_mode(TtMode::Off);
        let capacity = capacity_for(&info, budget, layout);
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
        context.submit_and_wait(|device, cb| {
            record_copy(device, cb, &tables_upload, &tables, table_bytes, 0);
        })?;
        drop(tables_upload);

        let buffers = ChunkBuffers::new(shared, capacity, layout)?;
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
            chunk_items: FIRST_CHUNK_ITEMS,
            pacer: Pacer::default(),
            submissions: options.submissions.resolve(&info),
            table_split: options.table_split,
            schedule: ScheduleStats::default(),
            dispatches_before_run: 0,
            host_work: HostWork::default(),
            healthy: true,
            table_distrust: None,
        };
        backend.bind_buffers();
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
        self.submit_whole_chunk(0, &[start], 3)?;
        self.context.wait(0)?;
        let whole = self.chunk_counts(0, 1, 3)?;
        for counts in [in_parts, whole] {
            if counts.as_deref() != Some(&[Counts::exact(8_902)]) {
                return Err(GpuError::Vulkan {
                    call: "warm-up",
                    result: format!("start position perft(3) gave {counts:?}, expected 8902"),
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
        self.submissions
    }

    /// Positions a chunk's levels can hold together.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Positions the levels before a chunk's compact leaf level can hold together.
    pub fn inner_capacity(&self) -> u32 {
        inner_positions(u64::from(self.capacity)) as u32
    }

    /// How the last run was scheduled.
    pub fn schedule_stats(&self) -> ScheduleStats {
        ScheduleStats {
            dispatches: self.pipelines.dispatches() - self.dispatches_before_run,
            widest_dispatch: self.pipelines.widest_dispatch(),
            ..self.schedule
        }
    }

    /// Points the pipelines' descriptor set at the current buffers.
    fn bind_buffers(&self) {
        let buffers = &self.buffers;
        let tt = &self.tt;
        self.pipelines.bind(&Bindings {
            tables: self.tables.buffer,
            boards: buffers.boards.buffer,
            children: buffers.children.buffer,
            counts: buffers.counts.buffer,
            control: buffers.control.buffer,
            fast_counts: buffers.fast_counts.buffer,
            hashes: buffers.hashes.buffer,
            tt_params: tt.params.buffer,
            zobrist: tt.zobrist.buffer,
            tt_stats: tt.stats.buffer,
            dedup: buffers.dedup.buffer,
            work: buffers.work.buffer,
        });
    }

    /// Sizes the chunk buffers for `layout`: as many positions as the budget holds with what
    /// it keeps. The new buffers are allocated before the old ones are freed, so a failure
    /// leaves the backend as it was.
    pub(super) fn use_layout(&mut self, layout: PositionLayout) -> Result<(), GpuError> {
        if layout == self.layout {
            return Ok(());
        }
        for slot in 0..SLOTS {
            self.context.wait(slot)?;
        }
        let capacity = capacity_for(self.context.info(), self.budget, layout);
        let buffers = ChunkBuffers::new(&self.context.shared, capacity, layout)?;
        self.buffers = buffers;
        self.bind_buffers();
        self.layout = layout;
        self.capacity = capacity as u32;
        self.max_groups_x = max_groups_x(self.max_workgroups, self.capacity);
        Ok(())
    }

    /// Items of one chunk: at most a share of the capacity (the upload and readback size).
    fn max_chunk_items(&self) -> usize {
        (u64::from(self.capacity) / ITEMS_SHARE) as usize
    }

    /// Items `remaining` plies deep the next chunk may hold: the adapted size, within the
    /// upload buffers and a share of the buffers at the positions per item of the last chunk
    /// of that depth (items vary: a chunk predicted to fill them would overflow half the time).
    fn chunk_items_for(&self, remaining: u32) -> usize {
        let room = f64::from(self.capacity) / LAUNCH_CAPACITY_SHARE;
        let fitting = self
            .pacer
            .positions_per_item(remaining)
            .map_or(usize::MAX, |per_item| {
                (room / per_item.max(1.0)).max(1.0) as usize
            });
        self.chunk_items.min(self.max_chunk_items()).min(fitting)
    }

    /// Items at the front of `items` that go whole to the device as the next chunk, if they do.
    fn next_whole_chunk(&self, items: &VecDeque<WorkItem>) -> Option<usize> {
        let remaining = items.front()?.remaining;
        if remaining == 0 {
            return None;
        }
        // The field is resolved for the device: `Auto` is never left in it.
        let fitting = match self.submissions {
            Submissions::Paced | Submissions::Auto => self.pacer.whole_chunk_items(remaining)?,
            Submissions::Whole => usize::MAX,
        };
        let take = items
            .iter()
            .take(self.chunk_items_for(remaining).min(fitting))
            .take_while(|item| item.remaining == remaining)
            .count();
        Some(take)
    }

    /// A submission of search stages took `took` on the device.
    fn record_submission(&mut self, took: Duration) {
        self.schedule.submissions += 1;
        self.schedule.longest_submission = self.schedule.longest_submission.max(took);
        self.chunk_device_time += took;
    }

    /// The host's share of a run: every ply down to the launch depth expanded and its
    /// transpositions merged, so the items are the distinct positions of their ply, each with
    /// its paths per root move (a chunk's first level has no duplicates); `Cancelled` soon
    /// after a cancel.
    fn plan(&self, root: &Position, depth: u32, cancel: &AtomicBool) -> Result<Plan, Cancelled> {
        let capacity = u64::from(self.capacity);
        Plan::expand_merged(root, depth, MAX_HOST_ITEMS, cancel, |branching| {
            launch_depth(capacity, branching)
        })
    }

    /// Perft of `root` to `depth`, per root move in generation order.
    pub fn divide(
        &mut self,
        root: &Position,
        depth: u32,
        control: &RunControl<'_>,
    ) -> Result<Vec<(Move, Counts)>, RunError> {
        self.schedule = ScheduleStats::default();
        self.dispatches_before_run = self.pipelines.dispatches();
        self.pipelines.reset_widest();
        if depth == 0 {
            return Ok(Vec::new());
        }
        // Whole chunks start at what the launch depth was chosen for (more overflowed first).
        self.chunk_items = match self.submissions {
            Submissions::Paced | Submissions::Auto => FIRST_CHUNK_ITEMS,
            Submissions::Whole => ITEMS_PER_CHUNK_AT_LAUNCH as usize,
        };
        let plan = self.plan(root, depth, control.cancel)?;
        self.split_table(&plan)?;
        let launch_depth = plan.items.iter().map(|item| item.remaining).max();
        self.begin_work(depth, plan.items.len() as u64, launch_depth.unwrap_or(0))?;
        let mut tally = Tally::new(&plan);
        for (m, counts) in tally.complete_from_the_start() {
            (control.on_root_done)(m, counts);
        }
        let items: VecDeque<WorkItem> = plan.items.into();
        let searched = self.search(items, &mut tally, control);
        // A run that stopped early may have left whole chunks queued: they finish before the
        // buffers are used again (their counts are complete, so the table stays exact).
        for slot in 0..SLOTS {
            let _ = self.context.wait(slot);
        }
        searched?;
        self.report_progress(&tally, control)?;
        Ok(tally.into_divide())
    }

    /// Counts `items` chunk by chunk into `tally`: whole chunks two at a time while their size
    /// is known to fit a submission, else one in parts.
    fn search(
        &mut self,
        mut items: VecDeque<WorkItem>,
        tally: &mut Tally,
        control: &RunControl<'_>,
    ) -> Result<(), RunError> {
        struct Queued {
            slot: usize,
            items: Vec<WorkItem>,
        }
        let mut queued: VecDeque<Queued> = VecDeque::new();
        let mut next_slot = 0;
        let mut last_report = Instant::now();
        while !items.is_empty() || !queued.is_empty() {
            if control.cancel.load(Ordering::Relaxed) {
                return Err(RunError::Cancelled);
            }
            while queued.len() < SLOTS {
                let Some(take) = self.next_whole_chunk(&items) else {
                    break;
                };
                let chunk: Vec<WorkItem> = items.drain(..take).collect();
                self.submit_whole_chunk(next_slot, &boards_of(&chunk), chunk[0].remaining)?;
                queued.push_back(Queued {
                    slot: next_slot,
                    items: chunk,
                });
                next_slot = (next_slot + 1) % SLOTS;
            }
            let (chunk, counts, took, whole) = if let Some(whole) = queued.pop_front() {
                let took = self.context.wait(whole.slot)?;
                self.schedule.longest_submission = self.schedule.longest_submission.max(took);
                let remaining = whole.items[0].remaining;
                let counts = self.chunk_counts(whole.slot, whole.items.len() as u32, remaining)?;
                if counts.is_some() {
                    self.schedule.whole_chunks += 1;
                }
                (whole.items, counts, took, true)
            } else {
                let remaining = items[0].remaining;
                let take = items
                    .iter()
                    .take(self.chunk_items_for(remaining))
                    .take_while(|item| item.remaining == remaining)
                    .count();
                let chunk: Vec<WorkItem> = items.drain(..take).collect();
                self.chunk_device_time = Duration::ZERO;
                let counts = if remaining == 0 {
                    Some(vec![Counts::exact(1); take])
                } else {
                    self.run_chunk_in_parts(&boards_of(&chunk), remaining, control)?
                };
                (chunk, counts, self.chunk_device_time, false)
            };
            let remaining = chunk[0].remaining;
            let Some(counts) = counts else {
                self.overflowed(chunk, whole, &mut items, tally, control);
                continue;
            };
            self.schedule.chunks += 1;
            self.adapt_chunk_size(chunk.len(), took);
            let positions = self.host_work.last_chunk_positions;
            self.pacer
                .record_chunk(remaining, chunk.len(), positions, took, whole);
            for (item, count) in chunk.iter().zip(counts) {
                for (m, counts) in tally.record(item, count) {
                    (control.on_root_done)(m, counts);
                }
            }
            if last_report.elapsed() >= control.progress_interval {
                self.report_progress(tally, control)?;
                last_report = Instant::now();
            }
        }
        Ok(())
    }

    /// A chunk (`whole` or in parts) did not fit: its items go back to the front, to be redone
    /// in chunks of half as many items; a single item of a paced whole chunk (whose levels were
    /// bounded by what fits a submission) is redone in parts, and a single item that did not
    /// fit in parts is expanded one ply on the host.
    fn overflowed(
        &mut self,
        mut chunk: Vec<WorkItem>,
        whole: bool,
        items: &mut VecDeque<WorkItem>,
        tally: &mut Tally,
        control: &RunControl<'_>,
    ) {
        self.schedule.overflows += 1;
        if chunk.len() > 1 {
            self.chunk_items = (chunk.len() / 2).max(1);
        } else if whole && self.submissions == Submissions::Paced {
            self.pacer.overran(chunk[0].remaining);
        } else if let Some(item) = chunk.pop() {
            self.schedule.host_splits += 1;
            let children = item.children();
            for (m, counts) in tally.split(&item, &children) {
                (control.on_root_done)(m, counts);
            }
            chunk = merge_into_queue(children, items, tally);
            self.count_split(chunk.len());
        }
        for item in chunk.into_iter().rev() {
            items.push_front(item);
        }
    }

    fn report_progress(&self, tally: &Tally, control: &RunControl<'_>) -> Result<(), GpuError> {
        let mut sample = tally.progress();
        sample.tt = self.tt_snapshot()?;
        sample.work = Some(self.work_counters_with(sample.tt.as_ref())?);
        (control.on_progress)(sample);
        Ok(())
    }

    /// Paced, chunks are sized to take about [`CHUNK_TARGET`]; whole, a chunk after one that
    /// fit may hold twice as many items, up to what the buffers allow.
    fn adapt_chunk_size(&mut self, items: usize, took: Duration) {
        if self.submissions == Submissions::Whole {
            if items >= self.chunk_items {
                self.chunk_items = (self.chunk_items * 2).min(self.max_chunk_items());
            }
        } else if took > CHUNK_TARGET * 2 {
            self.chunk_items = (items / 2).max(1);
        } else if took < CHUNK_TARGET / 2 && items >= self.chunk_items {
            self.chunk_items = (self.chunk_items * 2).min(self.max_chunk_items());
        }
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

/// Plies below the items a chunk of `capacity` positions takes: the most whose leaf level,
/// estimated at `branching` children per position (the host's last ply; a table only makes
/// levels smaller), leaves room for [`ITEMS_PER_CHUNK_AT_LAUNCH`] items in a share of the
/// capacity. At least 2: the fused leaf's two plies.
fn launch_depth(capacity: u64, branching: f64) -> u32 {
    let room = capacity as f64 / LAUNCH_CAPACITY_SHARE / ITEMS_PER_CHUNK_AT_LAUNCH;
    let mut depth = 2;
    // An item `depth + 1` plies deep has about branching^(depth - 1) leaf-level positions.
    while depth < MAX_LEVELS && branching.max(1.0).powi(depth as i32 - 1) <= room {
        depth += 1;
    }
    depth
}

/// The children of a split item, less those that are the same position as an item waiting in
/// `items` at their depth (another split's child): those are merged into it, so every item of a
/// depth stays a distinct position, as the plan made them.
fn merge_into_queue(
    children: Vec<WorkItem>,
    items: &mut VecDeque<WorkItem>,
    tally: &mut Tally,
) -> Vec<WorkItem> {
    let Some(remaining) = children.first().map(|child| child.remaining) else {
        return children;
    };
    let waiting: HashMap<NybbleBoard, usize> = items
        .iter()
        .enumerate()
        .filter(|(_, item)| item.remaining == remaining)
        .map(|(index, item)| (NybbleBoard::from_position(&item.position), index))
        .collect();
    if waiting.is_empty() {
        return children;
    }
    let mut kept = Vec::with_capacity(children.len());
    for child in children {
        match waiting.get(&NybbleBoard::from_position(&child.position)) {
            Some(&index) => {
                tally.merged(&child, &items[index]);
                items[index].absorb(child);
            }
            None => kept.push(child),
        }
    }
    kept
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
        let outcome = self
            .divide(&request.position, request.depth, control)
            .and_then(|divide| {
                let tt = self.tt_snapshot()?;
                let work = self.work_counters_with(tt.as_ref())?;
                Ok(RunOutcome { divide, tt, work })
            });
        if matches!(outcome, Err(RunError::Failed(_))) {
            self.healthy = false;
        }
        outcome
    }

    fn is_healthy(&self) -> bool {
        self.healthy
    }
}
