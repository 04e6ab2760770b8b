//! Breadth-first perft on the GPU, driven by the host.
//!
//! The host expands the top plies into work items (a position, its root move, its remaining
//! depth). Items of equal remaining depth go to the GPU in chunks. Per chunk, level by level,
//! `expand` appends every position's children after its level (an atomic counter hands out the
//! space, so no prefix scan is needed; each position's children are contiguous); at remaining
//! depth 2 the fused `leaf` stage counts the last two plies without writing them; then
//! `upsweep` sums children into parents, level by level back to the chunk's items.
//!
//! A level that does not fit the memory budget sets an overflow flag: the chunk is halved and
//! redone, and a single item that still does not fit is expanded one ply on the host. Nothing
//! of an overflowed chunk is used. Chunk sizes adapt so that each takes a fraction of a second:
//! progress is reported and cancellation checked between chunks.
//!
//! With a transposition table (`tt_table.rs`, `glsl/common/tt.glsl`), expand probes each
//! position before generating its children (a hit gives its counts and no children), the leaf
//! probes and stores depth-2 positions, and upsweep stores every count it completes. Only
//! complete counts are ever stored: overflow can only happen in an expand, before the leaf and
//! upsweep of its chunk run, and a cancelled run stops between submissions, never inside the
//! one submission that holds a chunk's leaf and upsweep.

use super::buffer::GpuBuffer;
use super::context::Context;
use super::device::DeviceInfo;
use super::error::GpuError;
use super::layouts::{
    tt_params_bytes, ChildRange, Control, GpuBoard, GpuU128, SegmentAddresses, StepConstants,
    TtParamsHead, BYTES_PER_POSITION, TT_PARAMS_BYTES,
};
use super::pipelines::{record_barrier, Bindings, Pipelines, Stage};
use super::shader_layout::{
    DEDUP_CHILDREN, DEDUP_INPUT, DEDUP_SLOTS_PER_POSITION, TT_MIN_DEPTH, TT_STATS_MAX_DEPTH,
    TT_STAT_FIELDS, ZOBRIST_KEYS,
};
use super::tables::table_words;
use super::tt_table::GpuTable;
use crate::chess::movegen::legal_moves;
use crate::chess::moves::MAX_MOVES;
use crate::chess::{Hash128, Move, NybbleBoard, Position, Zobrist};
use crate::count::Counts;
use crate::run_control::{Cancelled, ProgressSample, RunControl};
use crate::tt::{TtConfig, TtError, TtMode, TtStatsSnapshot};
use ash::vk;
use gpu_allocator::MemoryLocation;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Plies the GPU expands below each host item (the last two in the fused leaf stage).
const GPU_PLIES: u32 = 5;
/// With a table, the host expands more plies, merging transpositions among them (from ply 3 on)
/// before any GPU work; start position perft(7) and perft(8) ran as fast on lavapipe as with
/// `GPU_PLIES`.
const GPU_PLIES_WITH_TT: u32 = 3;
/// At most this many plies are expanded on the host before the GPU takes over.
const MAX_HOST_PLIES: u32 = 4;
/// The default memory budget is this fraction of the device's largest heap ...
const DEFAULT_BUDGET_FRACTION: u64 = 4;
/// ... and at most this many bytes.
const DEFAULT_BUDGET_CAP: u64 = 2 << 30;
/// A chunk should take about this long, so progress and cancellation stay responsive.
const CHUNK_TARGET: Duration = Duration::from_millis(150);
/// Chunks start at one item per run and grow while they are fast: items of a deep run can be
/// large, and the first chunk must not delay progress or cancellation.
const FIRST_CHUNK_ITEMS: usize = 1;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GpuOptions {
    /// Device index from `vkperft devices`; `None` picks the preferred device.
    pub device: Option<usize>,
    /// Memory for the chunk buffers in bytes; `None` for the default.
    pub memory_budget: Option<u64>,
}

/// Why a GPU run did not produce a result.
#[derive(Debug)]
pub enum GpuRunError {
    Cancelled,
    Gpu(GpuError),
}

impl From<GpuError> for GpuRunError {
    fn from(err: GpuError) -> GpuRunError {
        GpuRunError::Gpu(err)
    }
}

impl From<Cancelled> for GpuRunError {
    fn from(_: Cancelled) -> GpuRunError {
        GpuRunError::Cancelled
    }
}

/// Why a transposition table could not be set up.
#[derive(Debug)]
pub enum PrepareError {
    /// The table the user asked for cannot be had (size, knobs, device features or memory).
    Tt(TtError),
    Gpu(GpuError),
}

impl From<TtError> for PrepareError {
    fn from(err: TtError) -> PrepareError {
        PrepareError::Tt(err)
    }
}

impl From<GpuError> for PrepareError {
    fn from(err: GpuError) -> PrepareError {
        PrepareError::Gpu(err)
    }
}

/// Buffers of one chunk's levels, sized for `capacity` positions.
struct ChunkBuffers {
    boards: GpuBuffer,
    children: GpuBuffer,
    counts: GpuBuffer,
    fast_counts: GpuBuffer,
    hashes: GpuBuffer,
    dedup: GpuBuffer,
    control: GpuBuffer,
    upload: GpuBuffer,
    /// A chunk's item counts, then its items' fast counts.
    readback: GpuBuffer,
}

/// The transposition table's parameters, keys and statistics (bound whether a table is in use
/// or not), and the table itself when the current run has one.
struct TtBuffers {
    params: GpuBuffer,
    zobrist: GpuBuffer,
    stats: GpuBuffer,
    stats_readback: GpuBuffer,
    table: Option<GpuTable>,
}

/// Counter words of the statistics buffer.
const TT_STAT_WORDS: usize = (TT_STATS_MAX_DEPTH as usize + 1) * TT_STAT_FIELDS as usize;

pub struct VulkanBackend {
    // Dropped in declaration order: pipelines and buffers before the context.
    pipelines: Pipelines,
    buffers: ChunkBuffers,
    tt: TtBuffers,
    _tables: GpuBuffer,
    context: Context,
    capacity: u32,
    /// Items per chunk; adapted from chunk to chunk.
    chunk_items: usize,
}

/// One unit of host work: a position `remaining` plies deep, and how many paths lead to it from
/// each root move it lies below, as (root move index, paths).
struct Item {
    roots: Vec<(usize, u64)>,
    board: GpuBoard,
    position: Position,
    remaining: u32,
}

impl VulkanBackend {
    pub fn new(options: &GpuOptions) -> Result<VulkanBackend, GpuError> {
        let context = Context::new(options.device)?;
        let info = context.info().clone();
        let budget = options.memory_budget.unwrap_or_else(|| {
            (info.memory_bytes() / DEFAULT_BUDGET_FRACTION).min(DEFAULT_BUDGET_CAP)
        });
        let by_budget = budget / BYTES_PER_POSITION;
        let by_binding = u64::from(info.max_storage_buffer_range) / size_of::<GpuBoard>() as u64;
        // The shaders' 32-bit append counter must not wrap even if every position of a full
        // level had the maximum number of moves.
        let by_counter = u64::from(u32::MAX) / MAX_MOVES as u64;
        let capacity = by_budget.min(by_binding).min(by_counter);
        // A chunk needs room for an item and its children at least.
        const MIN_CAPACITY: u64 = 1024;
        if capacity < MIN_CAPACITY {
            return Err(GpuError::BudgetTooSmall {
                mb: budget >> 20,
                needed_mb: (MIN_CAPACITY * BYTES_PER_POSITION).div_ceil(1 << 20),
            });
        }
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
            let region = [vk::BufferCopy::default().size(table_bytes)];
            // SAFETY: both buffers are live and large enough; the command buffer is recording.
            unsafe { device.cmd_copy_buffer(cb, tables_upload.buffer, tables.buffer, &region) };
        })?;
        drop(tables_upload);

        let position_bytes = |per: usize| capacity * per as u64;
        let buffers = ChunkBuffers {
            boards: GpuBuffer::new(
                shared,
                "boards",
                position_bytes(size_of::<GpuBoard>()),
                MemoryLocation::GpuOnly,
            )?,
            children: GpuBuffer::new(
                shared,
                "children",
                position_bytes(size_of::<ChildRange>()),
                MemoryLocation::GpuOnly,
            )?,
            counts: GpuBuffer::new(
                shared,
                "counts",
                position_bytes(size_of::<GpuU128>()),
                MemoryLocation::GpuOnly,
            )?,
            fast_counts: GpuBuffer::new(
                shared,
                "fast counts",
                position_bytes(size_of::<GpuU128>()),
                MemoryLocation::GpuOnly,
            )?,
            hashes: GpuBuffer::new(
                shared,
                "hashes",
                position_bytes(size_of::<GpuU128>()),
                MemoryLocation::GpuOnly,
            )?,
            dedup: GpuBuffer::new(
                shared,
                "dedup set",
                position_bytes(DEDUP_SLOTS_PER_POSITION as usize * size_of::<u32>()),
                MemoryLocation::GpuOnly,
            )?,
            control: GpuBuffer::new(
                shared,
                "control",
                size_of::<Control>() as u64,
                MemoryLocation::GpuToCpu,
            )?,
            upload: GpuBuffer::new(
                shared,
                "chunk upload",
                position_bytes(size_of::<GpuBoard>()) / 4,
                MemoryLocation::CpuToGpu,
            )?,
            readback: GpuBuffer::new(
                shared,
                "chunk readback",
                position_bytes(2 * size_of::<GpuU128>()) / 4,
                MemoryLocation::GpuToCpu,
            )?,
        };
        let stat_bytes = (TT_STAT_WORDS * size_of::<u64>()) as u64;
        let zobrist_bytes = (ZOBRIST_KEYS as usize * size_of::<GpuU128>()) as u64;
        let tt = TtBuffers {
            params: GpuBuffer::new(
                shared,
                "TT parameters",
                TT_PARAMS_BYTES as u64,
                MemoryLocation::GpuOnly,
            )?,
            zobrist: GpuBuffer::new(
                shared,
                "Zobrist keys",
                zobrist_bytes,
                MemoryLocation::GpuOnly,
            )?,
            stats: GpuBuffer::new(shared, "TT statistics", stat_bytes, MemoryLocation::GpuOnly)?,
            stats_readback: GpuBuffer::new(
                shared,
                "TT statistics readback",
                stat_bytes,
                MemoryLocation::GpuToCpu,
            )?,
            table: None,
        };
        let pipelines = Pipelines::new(shared, info.supports_tt())?;
        pipelines.bind(&Bindings {
            tables: tables.buffer,
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
        });
        let mut backend = VulkanBackend {
            pipelines,
            buffers,
            tt,
            _tables: tables,
            context,
            capacity: capacity as u32,
            chunk_items: FIRST_CHUNK_ITEMS,
        };
        // No table until a run asks for one (`prepare_tt` also clears the statistics).
        backend.upload_no_table()?;
        backend.warm_up()?;
        Ok(backend)
    }

    /// Runs every search stage once: drivers such as lavapipe compile a pipeline at its first
    /// dispatch, which would otherwise be timed as part of the first run.
    fn warm_up(&mut self) -> Result<(), GpuError> {
        let start = GpuBoard::from(NybbleBoard::from_position(&Position::startpos()));
        let never = std::sync::atomic::AtomicBool::new(false);
        let control = RunControl {
            cancel: &never,
            progress_interval: Duration::MAX,
            on_progress: &|_| {},
            on_root_done: &|_, _| {},
        };
        match self.run_chunk(&[start], 3, &control) {
            Ok(Some(counts)) if counts == [Counts::exact(8_902)] => Ok(()),
            Ok(other) => Err(GpuError::Vulkan {
                call: "warm-up",
                result: format!("start position perft(3) gave {other:?}, expected 8902"),
            }),
            Err(GpuRunError::Gpu(err)) => Err(err),
            Err(GpuRunError::Cancelled) => unreachable!("the warm-up is never cancelled"),
        }
    }

    pub fn device_name(&self) -> &str {
        &self.context.info().name
    }

    pub fn device_info(&self) -> &DeviceInfo {
        self.context.info()
    }

    /// Whether this device runs the TT modes (see `vkperft devices`).
    pub fn supports_tt(&self) -> bool {
        self.context.info().supports_tt()
    }

    /// Sets up the transposition table of the next runs: none for `off`, else a cleared table
    /// of `config` (reallocated only when the configuration changed) with the keys of
    /// `zobrist`, and zeroed statistics.
    pub fn prepare_tt(&mut self, config: &TtConfig, zobrist: &Zobrist) -> Result<(), PrepareError> {
        if config.mode == TtMode::Off {
            self.tt.table = None;
            self.upload_no_table()?;
            return Ok(());
        }
        let info = self.context.info();
        if !info.supports_tt() {
            return Err(PrepareError::Tt(TtError::DeviceLacks {
                mode: config.mode,
                device: info.name.clone(),
                missing: info.tt_missing.join(", "),
            }));
        }
        let reusable = self
            .tt
            .table
            .as_ref()
            .is_some_and(|table| table.config() == config);
        if !reusable {
            self.tt.table = None;
            let needed = config.table_bytes()?;
            let search_bytes = u64::from(self.capacity) * BYTES_PER_POSITION;
            let available = info.memory_bytes().saturating_sub(search_bytes) as usize;
            if needed > available {
                return Err(PrepareError::Tt(TtError::MoreThanDeviceMemory {
                    needed,
                    available,
                    device: info.name.clone(),
                }));
            }
            let max_segment_bytes = u64::from(info.max_storage_buffer_range);
            self.tt.table = Some(GpuTable::new(
                &self.context.shared,
                config,
                max_segment_bytes,
            )?);
        }
        let Some(table) = &self.tt.table else {
            unreachable!("created just above");
        };
        self.upload(
            &self.tt.params,
            &tt_params_bytes(&table.head(), &table.addresses()),
        )?;
        self.upload_zobrist(zobrist)?;
        self.context.submit_and_wait(|device, cb| {
            for buffer in table.buffers().chain([&self.tt.stats]) {
                // SAFETY: the buffers are live; the command buffer is recording.
                unsafe { device.cmd_fill_buffer(cb, buffer.buffer, 0, vk::WHOLE_SIZE, 0) };
            }
            record_barrier(device, cb);
            self.record_stats_readback(device, cb);
        })?;
        Ok(())
    }

    /// The table's statistics as of the last finished chunk; `None` without a table.
    pub fn tt_snapshot(&self) -> Result<Option<TtStatsSnapshot>, GpuError> {
        let Some(table) = &self.tt.table else {
            return Ok(None);
        };
        let bytes = self
            .tt
            .stats_readback
            .mapped()
            .ok_or_else(|| unmapped("TT statistics readback"))?;
        let words: Vec<u64> = bytemuck::pod_collect_to_vec(bytes);
        Ok(Some(table.snapshot(&words)))
    }

    /// Segments per table array of the current table (0 without one).
    pub fn tt_segments(&self) -> usize {
        self.tt.table.as_ref().map_or(0, GpuTable::segments)
    }

    fn record_stats_readback(&self, device: &ash::Device, cb: vk::CommandBuffer) {
        let region = [vk::BufferCopy::default().size(self.tt.stats.size)];
        // SAFETY: both buffers are live and of this size; the command buffer is recording.
        unsafe {
            device.cmd_copy_buffer(
                cb,
                self.tt.stats.buffer,
                self.tt.stats_readback.buffer,
                &region,
            )
        };
    }

    /// Points the shaders at no table (mode off).
    fn upload_no_table(&self) -> Result<(), GpuError> {
        let no_table = tt_params_bytes(&TtParamsHead::default(), &SegmentAddresses::default());
        self.upload(&self.tt.params, &no_table)
    }

    /// Uploads the keys of `zobrist`, as (low, high) words.
    fn upload_zobrist(&self, zobrist: &Zobrist) -> Result<(), GpuError> {
        let keys: Vec<GpuU128> = zobrist
            .key_table()
            .into_iter()
            .map(|key| GpuU128 {
                low: key.lo,
                high: key.hi,
            })
            .collect();
        self.upload(&self.tt.zobrist, bytemuck::cast_slice(&keys))
    }

    /// Copies `bytes` to the start of the device-local `target` through a staging buffer.
    fn upload(&self, target: &GpuBuffer, bytes: &[u8]) -> Result<(), GpuError> {
        let mut staging = GpuBuffer::new(
            &self.context.shared,
            "staging",
            bytes.len() as u64,
            MemoryLocation::CpuToGpu,
        )?;
        write_mapped(&mut staging, bytes)?;
        self.context.submit_and_wait(|device, cb| {
            let region = [vk::BufferCopy::default().size(bytes.len() as u64)];
            // SAFETY: both buffers are live and large enough; the command buffer is recording.
            unsafe { device.cmd_copy_buffer(cb, staging.buffer, target.buffer, &region) };
        })
    }

    /// The TT hashes the shaders compute for `boards` at `depth` plies remaining with the keys
    /// of `zobrist` (as `Zobrist::hash(position) ^ zobrist.depth_key(depth)` on the CPU).
    pub fn key_hashes(
        &mut self,
        zobrist: &Zobrist,
        boards: &[GpuBoard],
        depth: u32,
    ) -> Result<Vec<Hash128>, GpuError> {
        self.upload_zobrist(zobrist)?;
        write_mapped(&mut self.buffers.upload, bytemuck::cast_slice(boards))?;
        let count = boards.len() as u32;
        let step = StepConstants {
            input_count: count,
            remaining: depth,
            ..StepConstants::default()
        };
        self.context.submit_and_wait(|device, cb| {
            self.record_upload(device, cb, std::mem::size_of_val(boards) as u64);
            self.pipelines
                .record_dispatch(cb, Stage::KeyProbe, &step, count);
            record_barrier(device, cb);
            self.record_readback(device, cb, &self.buffers.hashes, count, 0);
        })?;
        Ok(self
            .read_back(count, 0)?
            .into_iter()
            .map(|words| Hash128 {
                hi: words.high,
                lo: words.low,
            })
            .collect())
    }

    /// Positions a chunk's levels can hold together.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Items of one chunk: at most a quarter of the capacity (the upload and readback size).
    fn max_chunk_items(&self) -> usize {
        (self.capacity / 4) as usize
    }

    /// Perft of `root` to `depth`, per root move in generation order.
    pub fn divide(
        &mut self,
        root: &Position,
        depth: u32,
        control: &RunControl<'_>,
    ) -> Result<Vec<(Move, Counts)>, GpuRunError> {
        if depth == 0 {
            return Ok(Vec::new());
        }
        self.chunk_items = FIRST_CHUNK_ITEMS;
        let root_moves: Vec<Move> = legal_moves(root).iter().copied().collect();
        // Plies expanded on the host, the root move included.
        let gpu_plies = if self.tt.table.is_some() {
            GPU_PLIES_WITH_TT
        } else {
            GPU_PLIES
        };
        let host_plies = depth.saturating_sub(gpu_plies).clamp(1, MAX_HOST_PLIES);
        let mut items: VecDeque<Item> = VecDeque::new();
        for (index, &m) in root_moves.iter().enumerate() {
            expand_on_host(
                &[(index, 1)],
                root.play(m),
                depth - 1,
                host_plies - 1,
                &mut items,
            );
        }
        if self.tt.table.is_some() {
            items = merge_transpositions(items);
        }
        let mut root_counts = vec![Counts::default(); root_moves.len()];
        // Items each root move still waits for.
        let mut items_left = vec![0usize; root_moves.len()];
        for item in &items {
            for &(root, _) in &item.roots {
                items_left[root] += 1;
            }
        }
        for (index, &m) in root_moves.iter().enumerate() {
            if items_left[index] == 0 {
                (control.on_root_done)(m, Counts::default());
            }
        }
        let mut done = ProgressSample {
            nodes: 0,
            tasks_done: 0,
            tasks_total: items.len(),
            tt: None,
        };
        let mut last_report = Instant::now();
        while !items.is_empty() {
            if control.cancel.load(Ordering::Relaxed) {
                return Err(GpuRunError::Cancelled);
            }
            let remaining = items[0].remaining;
            let take = items
                .iter()
                .take(self.chunk_items.min(self.max_chunk_items()))
                .take_while(|item| item.remaining == remaining)
                .count();
            let started = Instant::now();
            let counts = if remaining == 0 {
                Some(vec![Counts::exact(1); take])
            } else {
                let boards: Vec<GpuBoard> = items.iter().take(take).map(|i| i.board).collect();
                self.run_chunk(&boards, remaining, control)?
            };
            let Some(counts) = counts else {
                if take > 1 {
                    self.chunk_items = (take / 2).max(1);
                } else if let Some(item) = items.pop_front() {
                    // One position's subtree does not fit: split it on the host.
                    let before = items.len();
                    let mut children = VecDeque::new();
                    expand_on_host(&item.roots, item.position, item.remaining, 1, &mut children);
                    for child in children.into_iter().rev() {
                        items.push_front(child);
                    }
                    let added = items.len() - before;
                    done.tasks_total += added;
                    done.tasks_total -= 1;
                    for &(root, _) in &item.roots {
                        items_left[root] += added;
                        items_left[root] -= 1;
                        if items_left[root] == 0 {
                            (control.on_root_done)(root_moves[root], root_counts[root]);
                        }
                    }
                }
                continue;
            };
            self.adapt_chunk_size(take, started.elapsed());
            for count in counts {
                let Some(item) = items.pop_front() else {
                    break;
                };
                for &(root, paths) in &item.roots {
                    root_counts[root] += count.times(paths);
                    done.nodes += count.times(paths).nodes;
                    items_left[root] -= 1;
                    if items_left[root] == 0 {
                        (control.on_root_done)(root_moves[root], root_counts[root]);
                    }
                }
                done.tasks_done += 1;
            }
            if last_report.elapsed() >= control.progress_interval {
                done.tt = self.tt_snapshot()?;
                (control.on_progress)(done.clone());
                last_report = Instant::now();
            }
        }
        done.tt = self.tt_snapshot()?;
        (control.on_progress)(done);
        Ok(root_moves.into_iter().zip(root_counts).collect())
    }

    fn adapt_chunk_size(&mut self, items: usize, took: Duration) {
        if took > CHUNK_TARGET * 2 {
            self.chunk_items = (items / 2).max(1);
        } else if took < CHUNK_TARGET / 2 && items >= self.chunk_items {
            self.chunk_items = (self.chunk_items * 2).min(self.max_chunk_items());
        }
    }

    /// Counts the subtrees of `boards`, all `remaining` (>= 1) plies deep; `None` when a level
    /// did not fit.
    fn run_chunk(
        &mut self,
        boards: &[GpuBoard],
        remaining: u32,
        control: &RunControl<'_>,
    ) -> Result<Option<Vec<Counts>>, GpuRunError> {
        let count = boards.len() as u32;
        write_mapped(&mut self.buffers.upload, bytemuck::cast_slice(boards))?;
        let upload_bytes = std::mem::size_of_val(boards) as u64;
        // (offset, count) of every level; level 0 is the chunk itself, level k is
        // `remaining - k` plies deep.
        let mut levels: Vec<(u32, u32)> = vec![(0, count)];
        let level_remaining = |level: usize| remaining - level as u32;
        // With a table, every level but the chunk's own (whose counts go back to the host) is
        // deduplicated before it is searched.
        let with_table = self.tt.table.is_some();
        let deduplicated =
            |level: usize| with_table && level > 0 && level_remaining(level) >= TT_MIN_DEPTH;
        let input_dedup = |level: usize| if deduplicated(level) { DEDUP_INPUT } else { 0 };
        let mut first_submission = true;
        while level_remaining(levels.len() - 1) > 2 {
            if control.cancel.load(Ordering::Relaxed) {
                return Err(GpuRunError::Cancelled);
            }
            let level = levels.len() - 1;
            let (offset, level_count) = levels[level];
            let output_offset = offset + level_count;
            let step = StepConstants {
                input_offset: offset,
                input_count: level_count,
                output_offset,
                output_capacity: self.capacity - output_offset,
                remaining: level_remaining(level),
                dedup: input_dedup(level),
            };
            let upload = first_submission.then_some(upload_bytes);
            first_submission = false;
            self.context.submit_and_wait(|device, cb| {
                if let Some(bytes) = upload {
                    self.record_upload(device, cb, bytes);
                }
                // SAFETY: the control buffer is live; the command buffer is recording.
                unsafe {
                    device.cmd_fill_buffer(cb, self.buffers.control.buffer, 0, vk::WHOLE_SIZE, 0)
                };
                if step.dedup != 0 {
                    self.record_dedup(device, cb, &step);
                }
                record_barrier(device, cb);
                self.pipelines
                    .record_dispatch(cb, Stage::Expand, &step, level_count);
                record_barrier(device, cb);
            })?;
            let control_block: Control = read_mapped(&self.buffers.control)?;
            if control_block.overflow != 0 {
                return Ok(None);
            }
            levels.push((output_offset, control_block.appended));
        }
        let upload = first_submission.then_some(upload_bytes);
        let certify = self
            .tt
            .table
            .as_ref()
            .is_some_and(|table| table.config().mode == TtMode::Certify);
        self.context.submit_and_wait(|device, cb| {
            if let Some(bytes) = upload {
                self.record_upload(device, cb, bytes);
            }
            let leaf_level = levels.len() - 1;
            let (offset, level_count) = levels[leaf_level];
            let leaf = StepConstants {
                input_offset: offset,
                input_count: level_count,
                remaining: level_remaining(leaf_level),
                dedup: input_dedup(leaf_level),
                ..StepConstants::default()
            };
            if leaf.dedup != 0 {
                self.record_dedup(device, cb, &leaf);
                record_barrier(device, cb);
            }
            self.pipelines
                .record_dispatch(cb, Stage::Leaf, &leaf, level_count);
            for (level, &(offset, level_count)) in levels.iter().enumerate().rev().skip(1) {
                record_barrier(device, cb);
                let children_dedup = if deduplicated(level + 1) {
                    DEDUP_CHILDREN
                } else {
                    0
                };
                let up = StepConstants {
                    input_offset: offset,
                    input_count: level_count,
                    remaining: level_remaining(level),
                    dedup: input_dedup(level) | children_dedup,
                    ..StepConstants::default()
                };
                self.pipelines
                    .record_dispatch(cb, Stage::Upsweep, &up, level_count);
            }
            record_barrier(device, cb);
            self.record_readback(device, cb, &self.buffers.counts, count, 0);
            if certify {
                self.record_readback(device, cb, &self.buffers.fast_counts, count, count);
            }
            if self.tt.table.is_some() {
                self.record_stats_readback(device, cb);
            }
        })?;
        let exact = self.read_back(count, 0)?;
        let fast = if certify {
            self.read_back(count, count)?
        } else {
            exact.clone()
        };
        Ok(Some(
            exact
                .into_iter()
                .zip(fast)
                .map(|(exact, fast)| Counts {
                    nodes: exact.into(),
                    fast_nodes: fast.into(),
                })
                .collect(),
        ))
    }

    /// Records the deduplication of the level `step` reads: the dedup set is cleared, then each
    /// position marks itself if it occurs earlier in the level.
    fn record_dedup(&self, device: &ash::Device, cb: vk::CommandBuffer, step: &StepConstants) {
        if step.input_count == 0 {
            return;
        }
        let set_bytes = u64::from(step.input_count * DEDUP_SLOTS_PER_POSITION) * 4;
        // SAFETY: the dedup buffer is live and holds this many slots (it is sized for the
        // capacity); the command buffer is recording.
        unsafe { device.cmd_fill_buffer(cb, self.buffers.dedup.buffer, 0, set_bytes, 0) };
        record_barrier(device, cb);
        self.pipelines
            .record_dispatch(cb, Stage::Dedup, step, step.input_count);
    }

    /// Records a copy of the first `values` 128-bit values of `source` to the host-visible
    /// readback buffer, from its value `at` on.
    fn record_readback(
        &self,
        device: &ash::Device,
        cb: vk::CommandBuffer,
        source: &GpuBuffer,
        values: u32,
        at: u32,
    ) {
        let value_bytes = size_of::<GpuU128>() as u64;
        let region = [vk::BufferCopy::default()
            .dst_offset(u64::from(at) * value_bytes)
            .size(u64::from(values) * value_bytes)];
        // SAFETY: both buffers are live and large enough; the command buffer is recording.
        unsafe { device.cmd_copy_buffer(cb, source.buffer, self.buffers.readback.buffer, &region) };
    }

    /// `values` 128-bit values copied by [`Self::record_readback`] from value `at` on.
    fn read_back(&self, values: u32, at: u32) -> Result<Vec<GpuU128>, GpuError> {
        let bytes = self
            .buffers
            .readback
            .mapped()
            .ok_or_else(|| unmapped("readback"))?;
        let value_bytes = size_of::<GpuU128>();
        let start = at as usize * value_bytes;
        Ok(bytemuck::pod_collect_to_vec(
            &bytes[start..start + values as usize * value_bytes],
        ))
    }

    fn record_upload(&self, device: &ash::Device, cb: vk::CommandBuffer, bytes: u64) {
        let region = [vk::BufferCopy::default().size(bytes)];
        // SAFETY: both buffers are live and large enough; the command buffer is recording.
        unsafe {
            device.cmd_copy_buffer(
                cb,
                self.buffers.upload.buffer,
                self.buffers.boards.buffer,
                &region,
            )
        };
        record_barrier(device, cb);
    }

    /// Runs the layout probe on the given values and returns what the shader saw, in the
    /// order of `glsl/layout_probe.comp`, each value v as the 128-bit (v, !v).
    pub fn probe_layouts(
        &mut self,
        board: GpuBoard,
        range: ChildRange,
        control_block: Control,
        step: StepConstants,
        tt_head: TtParamsHead,
        segments: &SegmentAddresses,
    ) -> Result<Vec<GpuU128>, GpuError> {
        write_mapped(&mut self.buffers.upload, bytemuck::bytes_of(&board))?;
        self.upload(&self.buffers.children, bytemuck::bytes_of(&range))?;
        self.upload(&self.buffers.control, bytemuck::bytes_of(&control_block))?;
        self.upload(&self.tt.params, &tt_params_bytes(&tt_head, segments))?;
        const PROBED_VALUES: u32 = 24;
        let probed = self.context.submit_and_wait(|device, cb| {
            self.record_upload(device, cb, size_of::<GpuBoard>() as u64);
            self.pipelines
                .record_dispatch(cb, Stage::LayoutProbe, &step, 1);
            record_barrier(device, cb);
            self.record_readback(device, cb, &self.buffers.counts, PROBED_VALUES, 0);
        });
        // Back to "no table" whatever happened.
        let restored = self.upload_no_table();
        probed?;
        restored?;
        self.read_back(PROBED_VALUES, 0)
    }
}

/// Appends the positions `plies` below `position` (or `position` itself for 0 plies), reached
/// below the root moves `roots`, as items `remaining - plies` deep.
fn expand_on_host(
    roots: &[(usize, u64)],
    position: Position,
    remaining: u32,
    plies: u32,
    items: &mut VecDeque<Item>,
) {
    if plies == 0 || remaining == 0 {
        items.push_back(Item {
            roots: roots.to_vec(),
            board: NybbleBoard::from_position(&position).into(),
            position,
            remaining,
        });
        return;
    }
    for &m in legal_moves(&position).iter() {
        expand_on_host(roots, position.play(m), remaining - 1, plies - 1, items);
    }
}

/// Merges items that are the same position at the same depth (transpositions among the host's
/// plies): the first keeps the paths of all, so each is searched once. The boards are compared
/// exactly.
fn merge_transpositions(items: VecDeque<Item>) -> VecDeque<Item> {
    let mut first_of: HashMap<(GpuBoard, u32), usize> = HashMap::new();
    let mut merged: VecDeque<Item> = VecDeque::with_capacity(items.len());
    for item in items {
        match first_of.entry((item.board, item.remaining)) {
            Entry::Occupied(first) => {
                let roots = &mut merged[*first.get()].roots;
                for (root, paths) in item.roots {
                    match roots.iter_mut().find(|(known, _)| *known == root) {
                        Some((_, known_paths)) => *known_paths += paths,
                        None => roots.push((root, paths)),
                    }
                }
            }
            Entry::Vacant(vacant) => {
                vacant.insert(merged.len());
                merged.push_back(item);
            }
        }
    }
    merged
}

fn unmapped(name: &str) -> GpuError {
    GpuError::Vulkan {
        call: "map",
        result: format!("{name} is not host-visible"),
    }
}

fn write_mapped(buffer: &mut GpuBuffer, bytes: &[u8]) -> Result<(), GpuError> {
    let mapped = buffer.mapped_mut().ok_or_else(|| unmapped("upload"))?;
    mapped[..bytes.len()].copy_from_slice(bytes);
    Ok(())
}

fn read_mapped<T: bytemuck::Pod>(buffer: &GpuBuffer) -> Result<T, GpuError> {
    let mapped = buffer.mapped().ok_or_else(|| unmapped("control"))?;
    Ok(bytemuck::pod_read_unaligned(&mapped[..size_of::<T>()]))
}
