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

use super::buffer::GpuBuffer;
use super::context::Context;
use super::error::GpuError;
use super::layouts::{ChildRange, Control, GpuBoard, StepConstants, BYTES_PER_POSITION};
use super::pipelines::{record_barrier, Bindings, Pipelines, Stage};
use super::tables::table_words;
use crate::chess::movegen::legal_moves;
use crate::chess::moves::MAX_MOVES;
use crate::chess::{Move, NybbleBoard, Position};
use crate::count::Counts;
use crate::run_control::{Cancelled, ProgressSample, RunControl};
use ash::vk;
use gpu_allocator::MemoryLocation;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Plies the GPU expands below each host item (the last two in the fused leaf stage).
const GPU_PLIES: u32 = 5;
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

/// Buffers of one chunk's levels, sized for `capacity` positions.
struct ChunkBuffers {
    boards: GpuBuffer,
    children: GpuBuffer,
    counts: GpuBuffer,
    control: GpuBuffer,
    upload: GpuBuffer,
    readback: GpuBuffer,
}

pub struct VulkanBackend {
    // Dropped in declaration order: pipelines and buffers before the context.
    pipelines: Pipelines,
    buffers: ChunkBuffers,
    _tables: GpuBuffer,
    context: Context,
    capacity: u32,
    /// Items per chunk; adapted from chunk to chunk.
    chunk_items: usize,
}

/// One unit of host work: a position below root move `root`, `remaining` plies deep.
struct Item {
    root: usize,
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
                position_bytes(size_of::<u64>()),
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
                position_bytes(size_of::<u64>()) / 4,
                MemoryLocation::GpuToCpu,
            )?,
        };
        let pipelines = Pipelines::new(shared)?;
        pipelines.bind(&Bindings {
            tables: tables.buffer,
            boards: buffers.boards.buffer,
            children: buffers.children.buffer,
            counts: buffers.counts.buffer,
            control: buffers.control.buffer,
        });
        let mut backend = VulkanBackend {
            pipelines,
            buffers,
            _tables: tables,
            context,
            capacity: capacity as u32,
            chunk_items: FIRST_CHUNK_ITEMS,
        };
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
            Ok(Some(counts)) if counts == [8_902] => Ok(()),
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
        let host_plies = depth.saturating_sub(GPU_PLIES).clamp(1, MAX_HOST_PLIES);
        let mut items: VecDeque<Item> = VecDeque::new();
        for (index, &m) in root_moves.iter().enumerate() {
            expand_on_host(index, root.play(m), depth - 1, host_plies - 1, &mut items);
        }
        let mut root_counts = vec![0u128; root_moves.len()];
        let mut items_left = vec![0usize; root_moves.len()];
        for item in &items {
            items_left[item.root] += 1;
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
                Some(vec![1u64; take])
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
                    expand_on_host(item.root, item.position, item.remaining, 1, &mut children);
                    for child in children.into_iter().rev() {
                        items.push_front(child);
                    }
                    let added = items.len() - before;
                    items_left[item.root] += added;
                    items_left[item.root] -= 1;
                    done.tasks_total += added;
                    done.tasks_total -= 1;
                    if items_left[item.root] == 0 {
                        (control.on_root_done)(
                            root_moves[item.root],
                            Counts::exact(root_counts[item.root]),
                        );
                    }
                }
                continue;
            };
            self.adapt_chunk_size(take, started.elapsed());
            for count in counts {
                let Some(item) = items.pop_front() else {
                    break;
                };
                root_counts[item.root] += u128::from(count);
                items_left[item.root] -= 1;
                done.nodes += u128::from(count);
                done.tasks_done += 1;
                if items_left[item.root] == 0 {
                    (control.on_root_done)(
                        root_moves[item.root],
                        Counts::exact(root_counts[item.root]),
                    );
                }
            }
            if last_report.elapsed() >= control.progress_interval {
                (control.on_progress)(done);
                last_report = Instant::now();
            }
        }
        (control.on_progress)(done);
        Ok(root_moves
            .into_iter()
            .zip(root_counts)
            .map(|(m, nodes)| (m, Counts::exact(nodes)))
            .collect())
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
    ) -> Result<Option<Vec<u64>>, GpuRunError> {
        let count = boards.len() as u32;
        write_mapped(&mut self.buffers.upload, bytemuck::cast_slice(boards))?;
        let upload_bytes = std::mem::size_of_val(boards) as u64;
        // (offset, count) of every level; level 0 is the chunk itself.
        let mut levels: Vec<(u32, u32)> = vec![(0, count)];
        let mut first_submission = true;
        while remaining - (levels.len() as u32 - 1) > 2 {
            if control.cancel.load(Ordering::Relaxed) {
                return Err(GpuRunError::Cancelled);
            }
            let (offset, level_count) = levels[levels.len() - 1];
            let output_offset = offset + level_count;
            let step = StepConstants {
                input_offset: offset,
                input_count: level_count,
                output_offset,
                output_capacity: self.capacity - output_offset,
                leaf_depth: 0,
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
        let leaf_depth = remaining.min(2);
        let upload = first_submission.then_some(upload_bytes);
        self.context.submit_and_wait(|device, cb| {
            if let Some(bytes) = upload {
                self.record_upload(device, cb, bytes);
            }
            let &(offset, level_count) = levels.last().unwrap_or(&(0, count));
            let leaf = StepConstants {
                input_offset: offset,
                input_count: level_count,
                leaf_depth,
                ..StepConstants::default()
            };
            self.pipelines
                .record_dispatch(cb, Stage::Leaf, &leaf, level_count);
            for &(offset, level_count) in levels.iter().rev().skip(1) {
                record_barrier(device, cb);
                let up = StepConstants {
                    input_offset: offset,
                    input_count: level_count,
                    ..StepConstants::default()
                };
                self.pipelines
                    .record_dispatch(cb, Stage::Upsweep, &up, level_count);
            }
            record_barrier(device, cb);
            self.record_counts_readback(device, cb, count);
        })?;
        Ok(Some(self.read_counts(count)?))
    }

    /// Records a copy of the first `words` counts to the host-visible readback buffer.
    fn record_counts_readback(&self, device: &ash::Device, cb: vk::CommandBuffer, words: u32) {
        let region = [vk::BufferCopy::default().size(u64::from(words) * 8)];
        // SAFETY: both buffers are live and large enough; the command buffer is recording.
        unsafe {
            device.cmd_copy_buffer(
                cb,
                self.buffers.counts.buffer,
                self.buffers.readback.buffer,
                &region,
            )
        };
    }

    /// The first `words` counts copied by [`Self::record_counts_readback`].
    fn read_counts(&self, words: u32) -> Result<Vec<u64>, GpuError> {
        let bytes = self
            .buffers
            .readback
            .mapped()
            .ok_or_else(|| unmapped("readback"))?;
        Ok(bytemuck::cast_slice::<u8, u64>(&bytes[..words as usize * 8]).to_vec())
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
    /// order of `glsl/layout_probe.comp`.
    pub fn probe_layouts(
        &mut self,
        board: GpuBoard,
        range: ChildRange,
        control_block: Control,
        step: StepConstants,
    ) -> Result<Vec<u64>, GpuError> {
        write_mapped(&mut self.buffers.upload, bytemuck::bytes_of(&board))?;
        let mut staging = GpuBuffer::new(
            &self.context.shared,
            "probe staging",
            16,
            MemoryLocation::CpuToGpu,
        )?;
        let mut bytes = Vec::new();
        bytes.extend_from_slice(bytemuck::bytes_of(&range));
        bytes.extend_from_slice(bytemuck::bytes_of(&control_block));
        write_mapped(&mut staging, &bytes)?;
        const PROBED_WORDS: u32 = 13;
        self.context.submit_and_wait(|device, cb| {
            self.record_upload(device, cb, size_of::<GpuBoard>() as u64);
            let to_children = [vk::BufferCopy::default().size(8)];
            let to_control = [vk::BufferCopy::default().src_offset(8).size(8)];
            // SAFETY: all buffers are live and large enough; the command buffer is recording.
            unsafe {
                device.cmd_copy_buffer(
                    cb,
                    staging.buffer,
                    self.buffers.children.buffer,
                    &to_children,
                );
                device.cmd_copy_buffer(
                    cb,
                    staging.buffer,
                    self.buffers.control.buffer,
                    &to_control,
                );
            }
            record_barrier(device, cb);
            self.pipelines
                .record_dispatch(cb, Stage::LayoutProbe, &step, 1);
            record_barrier(device, cb);
            self.record_counts_readback(device, cb, PROBED_WORDS);
        })?;
        self.read_counts(PROBED_WORDS)
    }
}

/// Appends the positions `plies` below `position` (or `position` itself for 0 plies) as items
/// of root move `root`, `remaining - plies` deep.
fn expand_on_host(
    root: usize,
    position: Position,
    remaining: u32,
    plies: u32,
    items: &mut VecDeque<Item>,
) {
    if plies == 0 || remaining == 0 {
        items.push_back(Item {
            root,
            board: NybbleBoard::from_position(&position).into(),
            position,
            remaining,
        });
        return;
    }
    for &m in legal_moves(&position).iter() {
        expand_on_host(root, position.play(m), remaining - 1, plies - 1, items);
    }
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
