//! One chunk on the GPU: the items' subtrees level by level (`expand`, after which `next_level`
//! records on the device where the appended level is and how large), the last two plies in the
//! fused `leaf` stage, then `upsweep` back to the items, and the copies in and out.
//!
//! A chunk goes to the device in one of two ways:
//! - **whole**: one command buffer holds every stage of every level, each dispatched
//!   indirectly from the level sizes on the device, so the host waits once per chunk and can
//!   queue the next chunk behind it. For chunks whose device time, estimated from earlier chunks
//!   of the same depth, fits one submission.
//! - **in parts**: stage by stage, each level in parts the pacer sizes, the host reading each
//!   level's size back; for chunks whose time is not known to be short (the first of a depth,
//!   and chunks of single items too deep for one submission).

use super::buffers::{mapped_bytes, read_mapped, write_mapped};
use super::DeviceRunner;
use crate::backend::run_control::RunControl;
use crate::backend::RunError;
use crate::chess::MoveStats;
use crate::count::Counts;
use crate::gpu::chunk_arrays::ChunkArray;
use crate::gpu::chunk_shape::{ChunkShape, ChunkStep, StageOp};
use crate::gpu::error::GpuError;
use crate::gpu::layouts::{Control, GpuBoard, GpuU128, Level, StepConstants};
use crate::gpu::shader_layout::{DEDUP_SLOTS_PER_POSITION, MAX_LEVELS, STAT_COLUMNS};
use crate::gpu::vk::pipelines::Stage;
use crate::gpu::vk::recorder::Recorder;
use std::sync::atomic::Ordering;

impl DeviceRunner {
    fn shape(&self, remaining: u32) -> ChunkShape {
        ChunkShape::new(remaining, self.table.current.is_some())
            .counting_stats(self.layout.move_stats)
    }

    /// The pipeline of a program step this run dispatches: the node count's build, or in a
    /// statistics run the one that carries the statistics.
    fn stage(&self, op: StageOp) -> Stage {
        let stage = match op {
            StageOp::Dedup | StageOp::ResolveDuplicates => return Stage::Dedup,
            StageOp::Expand => Stage::Expand,
            StageOp::Leaf => Stage::Leaf,
            StageOp::Upsweep => Stage::Upsweep,
        };
        match self.layout.move_stats {
            true => stage.with_move_stats(),
            false => stage,
        }
    }

    /// Submits the chunk of `boards`, all `remaining` (>= 1) plies deep, whole in `slot`, its
    /// levels holding at most `capacity` positions; [`Self::chunk_counts`] reads its counts once [`Context::wait`] returned for the slot.
    ///
    /// [`Context::wait`]: crate::gpu::vk::context::Context::wait
    pub(super) fn submit_whole_chunk(
        &mut self,
        slot: usize,
        boards: &[GpuBoard],
        remaining: u32,
        capacity: u32,
    ) -> Result<(), GpuError> {
        // The slot's last chunk was waited for already; if not, it finishes before its upload
        // buffer is written again.
        self.context.wait(slot)?;
        write_mapped(
            &mut self.buffers.slots[slot].upload,
            bytemuck::cast_slice(boards),
        )?;
        let program = self.shape(remaining).program();
        let count = boards.len() as u32;
        let control = &self.buffers.control;
        self.context.submit(slot, |recorder| {
            self.record_chunk_start(recorder, slot, count, capacity);
            let pipelines = &self.pipelines;
            let indirect = |stage, step: &StepConstants| {
                pipelines.record_indirect_dispatch(recorder, stage, step, control);
                recorder.barrier();
            };
            for chunk_step in program {
                let (op, step) = (chunk_step.op, &chunk_step.step);
                match op {
                    StageOp::Dedup => {
                        indirect(Stage::Dedup, &chunk_step.clear());
                        indirect(Stage::Dedup, step);
                    }
                    StageOp::Expand => {
                        indirect(self.stage(op), step);
                        let next = chunk_step.next_level();
                        pipelines.record_dispatch(recorder, Stage::NextLevel, &next, 1);
                        recorder.barrier();
                    }
                    StageOp::Leaf | StageOp::ResolveDuplicates | StageOp::Upsweep => {
                        indirect(self.stage(op), step);
                    }
                }
            }
            self.record_chunk_end(recorder, slot, count);
        })?;
        self.host_work.submissions += 1;
        Ok(())
    }

    /// Counts the subtrees of `boards`, all `remaining` (>= 1) plies deep, in parts (slot 0);
    /// `None` when a level did not fit.
    pub(super) fn run_chunk_in_parts(
        &mut self,
        boards: &[GpuBoard],
        remaining: u32,
        control: &RunControl<'_>,
    ) -> Result<Option<Vec<Counts>>, RunError> {
        const SLOT: usize = 0;
        let count = boards.len() as u32;
        write_mapped(
            &mut self.buffers.slots[SLOT].upload,
            bytemuck::cast_slice(boards),
        )?;
        // Recorded at the start of the chunk's first submission.
        let mut start = Some(count);
        let chunk_start = |start: &mut Option<u32>| {
            let items = start.take();
            move |runner: &Self, recorder: &Recorder| {
                if let Some(items) = items {
                    runner.record_chunk_start(recorder, SLOT, items, runner.capacity);
                }
            }
        };
        // The levels' sizes as the host knows them: the items, then each level as its expand
        // left it.
        let mut level_sizes = [0; MAX_LEVELS as usize];
        level_sizes[0] = count;
        for chunk_step in self.shape(remaining).program() {
            let (op, step) = (chunk_step.op, chunk_step.step);
            let level = step.level as usize;
            let positions = level_sizes[level];
            match op {
                StageOp::Dedup => self.dedup_level(chunk_step, positions, &mut start, control)?,
                StageOp::Expand => {
                    let fits = self.submit_level(
                        self.stage(op),
                        &step,
                        positions,
                        control,
                        chunk_start(&mut start),
                        |runner, recorder, last_part| {
                            recorder.barrier();
                            if last_part {
                                let next = chunk_step.next_level();
                                runner.pipelines.record_dispatch(
                                    recorder,
                                    Stage::NextLevel,
                                    &next,
                                    1,
                                );
                                recorder.barrier();
                            }
                            runner.record_control_readback(recorder, SLOT);
                        },
                        // A part that overflowed ends the level: the chunk is redone smaller.
                        |runner| Ok(runner.read_control(SLOT)?.overflow == 0),
                    )?;
                    let written = self.read_control(SLOT)?;
                    if !fits {
                        self.count_chunk_work(SLOT, &written, remaining, step.level + 1);
                        return Ok(None);
                    }
                    level_sizes[level + 1] = written.levels[level + 1].count;
                }
                StageOp::Leaf | StageOp::ResolveDuplicates | StageOp::Upsweep => {
                    self.submit_level(
                        self.stage(op),
                        &step,
                        positions,
                        control,
                        chunk_start(&mut start),
                        no_commands,
                        |_| Ok(true),
                    )?;
                }
            }
        }
        self.context.submit_and_wait(|recorder| {
            self.record_chunk_end(recorder, SLOT, count);
        })?;
        Ok(self.chunk_counts(SLOT, count, remaining)?)
    }

    /// The counts of the `count` items, `remaining` plies deep, of the chunk that ran in
    /// `slot`; `None` if a level of it did not fit.
    pub(super) fn chunk_counts(
        &mut self,
        slot: usize,
        count: u32,
        remaining: u32,
    ) -> Result<Option<Vec<Counts>>, GpuError> {
        let control = self.read_control(slot)?;
        self.count_chunk_work(slot, &control, remaining, remaining - 1);
        if control.overflow != 0 {
            return Ok(None);
        }
        if self.table.current.is_some() {
            self.count_chunk_stats(slot)?;
        }
        let exact = self.read_back(slot, count, 0)?;
        let fast = if self.table.certifies() {
            self.read_back(slot, count, count)?
        } else {
            exact.clone()
        };
        let mut counts: Vec<Counts> = exact
            .into_iter()
            .zip(fast)
            .map(|(exact, fast)| Counts {
                nodes: exact.into(),
                fast_nodes: fast.into(),
                ..Counts::default()
            })
            .collect();
        if self.layout.move_stats {
            let columns = STAT_COLUMNS * count;
            let stats = self.read_back(slot, columns, 2 * count)?;
            let fast_stats = if self.table.certifies() {
                self.read_back(slot, columns, 2 * count + columns)?
            } else {
                stats.clone()
            };
            let per_item = STAT_COLUMNS as usize;
            let items = stats.chunks(per_item).zip(fast_stats.chunks(per_item));
            for (counts, (stats, fast_stats)) in counts.iter_mut().zip(items) {
                counts.stats = move_stats_of(stats);
                counts.fast_stats = move_stats_of(fast_stats);
            }
        }
        Ok(Some(counts))
    }

    /// Records the start of a chunk of `count` items: their upload from `slot`, the table's
    /// statistics at zero, and a fresh `Control` block whose level 0 they are, its levels holding at most `capacity` positions
    /// (those before the compact leaf level at most what their buffers hold).
    pub(super) fn record_chunk_start(
        &self,
        recorder: &Recorder,
        slot: usize,
        count: u32,
        capacity: u32,
    ) {
        self.record_upload(
            recorder,
            slot,
            u64::from(count) * size_of::<GpuBoard>() as u64,
        );
        if self.table.current.is_some() {
            // The barrier after the upload orders this after the last chunk's copy of the
            // statistics.
            recorder.fill_zero(&self.table.stats);
        }
        // Levels are position indices from the chunk's first position on.
        let first = self.first_position();
        let head = ControlHead {
            appended: 0,
            overflow: 0,
            capacity: first + capacity,
            inner_capacity: first + capacity.min(self.inner_capacity()),
            max_groups_x: self.max_groups_x,
            unused: [0; 3],
            first_level: Level::new(first, count, self.max_groups_x),
        };
        recorder.update(&self.buffers.control, 0, bytemuck::bytes_of(&head));
        recorder.barrier();
    }

    /// Records the end of a chunk of `count` items: its counts (and fast counts in certify),
    /// in a statistics run their statistics (and fast statistics), the table's statistics and
    /// the control block copied to `slot`'s readback buffers (laid out as
    /// [`readback_values`] says).
    ///
    /// [`readback_values`]: super::buffers::readback_values
    fn record_chunk_end(&self, recorder: &Recorder, slot: usize, count: u32) {
        self.record_readback(recorder, slot, ChunkArray::Counts, count, 0);
        if self.table.certifies() {
            self.record_readback(recorder, slot, ChunkArray::FastCounts, count, count);
        }
        if self.layout.move_stats {
            let columns = STAT_COLUMNS * count;
            self.record_readback(recorder, slot, ChunkArray::Stats, columns, 2 * count);
            if self.table.certifies() {
                let at = 2 * count + columns;
                self.record_readback(recorder, slot, ChunkArray::FastStats, columns, at);
            }
        }
        if self.table.current.is_some() {
            self.record_stats_readback(recorder, slot);
        }
        self.record_work_readback(recorder, slot);
        self.record_control_readback(recorder, slot);
    }

    /// Dispatches `stage` over the `positions` positions of `step.level` in parts the pacer
    /// sizes, one submission each (at least one, so that `prologue` runs for an empty level
    /// too); `prologue` is recorded at the start of the first, `epilogue` after every part's
    /// dispatch (told whether the part is the last). Cancellation is checked before every
    /// part, and `keep_going` after each: `Ok(false)` when it stopped the level.
    ///
    /// Stopping between parts stores nothing partial in the table: every count a part stores
    /// is complete (a leaf's own two plies, or an upsweep over children that all finished).
    #[allow(clippy::too_many_arguments)]
    fn submit_level(
        &mut self,
        stage: Stage,
        step: &StepConstants,
        positions: u32,
        control: &RunControl<'_>,
        prologue: impl FnOnce(&Self, &Recorder),
        epilogue: impl Fn(&Self, &Recorder, bool),
        keep_going: impl Fn(&Self) -> Result<bool, GpuError>,
    ) -> Result<bool, RunError> {
        let mut prologue = Some(prologue);
        let mut start = 0;
        loop {
            if control.cancel.load(Ordering::Relaxed) {
                return Err(RunError::Cancelled);
            }
            let part_positions = self.parts.part_positions(stage).min(positions - start);
            let last_part = start + part_positions >= positions;
            let part = StepConstants {
                first_invocation: start,
                ..*step
            };
            let first = prologue.take();
            let took = self.context.submit_and_wait(|recorder| {
                if let Some(first) = first {
                    first(self, recorder);
                }
                self.pipelines
                    .record_dispatch(recorder, stage, &part, part_positions);
                epilogue(self, recorder, last_part);
            })?;
            self.parts.record(stage, part_positions, took);
            self.record_submission(took);
            start += part_positions;
            if !keep_going(self)? {
                return Ok(false);
            }
            if last_part {
                return Ok(true);
            }
        }
    }

    /// Deduplicates the level of `dedup` (`positions` positions): the dedup set is cleared,
    /// then each position marks itself if an equal one claimed its slot before it (the chunk's
    /// start goes first if still due).
    fn dedup_level(
        &mut self,
        dedup: ChunkStep,
        positions: u32,
        start: &mut Option<u32>,
        control: &RunControl<'_>,
    ) -> Result<(), RunError> {
        if positions == 0 {
            return Ok(());
        }
        let set_bytes = u64::from(positions * DEDUP_SLOTS_PER_POSITION) * 4;
        let clear_set = |runner: &Self, recorder: &Recorder| {
            if let Some(items) = start.take() {
                runner.record_chunk_start(recorder, 0, items, runner.capacity);
            }
            let arrays = &runner.buffers.arrays;
            let first_slot = arrays.layout().first_element(ChunkArray::Dedup);
            arrays.record_clear(recorder, ChunkArray::Dedup, first_slot, set_bytes);
            recorder.barrier();
        };
        self.submit_level(
            Stage::Dedup,
            &dedup.step,
            positions,
            control,
            clear_set,
            no_commands,
            |_| Ok(true),
        )?;
        Ok(())
    }

    /// The `Control` block as the last submission in `slot` copied it back.
    pub(super) fn read_control(&self, slot: usize) -> Result<Control, GpuError> {
        read_mapped(&self.buffers.slots[slot].control_readback)
    }

    /// Records the copy of the `Control` block to `slot`'s readback.
    pub(super) fn record_control_readback(&self, recorder: &Recorder, slot: usize) {
        let readback = &self.buffers.slots[slot].control_readback;
        let bytes = size_of::<Control>() as u64;
        recorder.copy(&self.buffers.control, 0, readback, 0, bytes);
    }

    /// Records a copy of the first `values` 128-bit values of `array` (counts, fast counts,
    /// hashes or statistics, from the chunk's first position) to `slot`'s readback buffer,
    /// from its value `at` on.
    pub(super) fn record_readback(
        &self,
        recorder: &Recorder,
        slot: usize,
        array: ChunkArray,
        values: u32,
        at: u32,
    ) {
        let value_bytes = size_of::<GpuU128>() as u64;
        let arrays = &self.buffers.arrays;
        arrays.record_copy_out(
            recorder,
            array,
            arrays.layout().first_element(array),
            u64::from(values) * value_bytes,
            &self.buffers.slots[slot].readback,
            u64::from(at) * value_bytes,
        );
    }

    /// `values` 128-bit values copied by [`Self::record_readback`] to `slot` from value `at` on.
    pub(super) fn read_back(
        &self,
        slot: usize,
        values: u32,
        at: u32,
    ) -> Result<Vec<GpuU128>, GpuError> {
        let bytes = mapped_bytes(&self.buffers.slots[slot].readback)?;
        let value_bytes = size_of::<GpuU128>();
        let start = at as usize * value_bytes;
        Ok(bytemuck::pod_collect_to_vec(
            &bytes[start..start + values as usize * value_bytes],
        ))
    }

    /// Records the copy of `bytes` of boards uploaded to `slot` to the boards from the chunk's
    /// first position on.
    pub(super) fn record_upload(&self, recorder: &Recorder, slot: usize, bytes: u64) {
        let upload = &self.buffers.slots[slot].upload;
        let first = u64::from(self.first_position());
        let arrays = &self.buffers.arrays;
        arrays.record_copy_in(recorder, upload, 0, ChunkArray::Boards, first, bytes);
        recorder.barrier();
    }
}

/// The start of the `Control` block, as a chunk begins: no children appended, no overflow,
/// the limits, and the chunk's items as level 0.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ControlHead {
    appended: u32,
    overflow: u32,
    capacity: u32,
    inner_capacity: u32,
    max_groups_x: u32,
    unused: [u32; 3],
    first_level: Level,
}

// The head is the `Control` block up to the end of level 0.
const _: () = assert!(
    size_of::<ControlHead>()
        == size_of::<Control>() - (MAX_LEVELS as usize - 1) * size_of::<Level>()
);

/// Records nothing: for a level with no commands after its dispatches.
fn no_commands(_: &DeviceRunner, _: &Recorder, _: bool) {}

/// A statistics run's item statistics as read back, in `STAT_*` order.
fn move_stats_of(values: &[GpuU128]) -> MoveStats {
    MoveStats::from_values(std::array::from_fn(|k| values[k].into()))
}
