//! The scheduler's executor on the CPU: each chunk runs the twin stages over one set of
//! [`TwinBuffers`], as its stage program lists them (`ChunkShape::program`, which the device
//! runner interprets too, `gpu/runner/chunk.rs`), with the run's [`TwinTable`] if it has one:
//! whole, every stage dispatched over the workgroups the `Control` block holds; in parts, each
//! level in parts of a fixed size, stopping at the part that overflowed. Device time is
//! simulated at a fixed time per position, so the scheduler's timed decisions are tested too.

use crate::backend::plan::{Plan, Tally, WorkItem};
use crate::backend::run_control::RunControl;
use crate::backend::RunError;
use crate::count::Counts;
use crate::gpu::chunk_shape::{ChunkShape, StageOp};
use crate::gpu::layouts::{inner_positions, Control, Level, PositionLayout, StepConstants};
use crate::gpu::level_work::count_written_levels;
use crate::gpu::options::Submissions;
use crate::gpu::scheduler::{ChunkRun, Executor, ScheduleStats, ITEMS_SHARE, SLOTS};
use crate::gpu::shader_layout::WORKGROUP_SIZE;
use crate::gpu::twin::buffers::{board_of, TwinBuffers};
use crate::gpu::twin::dedup::dedup;
use crate::gpu::twin::expand::expand;
use crate::gpu::twin::leaf::leaf;
use crate::gpu::twin::next_level::next_level;
use crate::gpu::twin::table::TwinTable;
use crate::gpu::twin::upsweep::upsweep;
use crate::work_counters::{ChunkWork, WorkCounters};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Workgroups along x of a dispatch (more go along y).
const MAX_GROUPS_X: u32 = 65_535;

/// One chunk the twin ran, for tests of the scheduler's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkRecord {
    pub items: usize,
    pub remaining: u32,
    pub whole: bool,
    /// The slot a whole chunk went in.
    pub slot: Option<usize>,
    /// Its levels fit (its counts were used).
    pub fit: bool,
    /// The positions its levels could hold.
    pub capacity: u32,
    /// The positions its known levels held, its items included.
    pub positions: u64,
}

/// Runs chunks on the CPU with the twin stages, with a table or without.
#[derive(Debug)]
pub struct TwinExecutor {
    capacity: u32,
    inner_capacity: u32,
    /// Positions of each part of a level run in parts (a multiple of the workgroup size).
    part_positions: u32,
    /// Simulated device time per position of a chunk.
    time_per_position: Duration,
    buffers: TwinBuffers,
    /// The run's table, if it has one.
    table: Option<TwinTable>,
    /// Each slot's chunk, run when submitted, until it is finished.
    slots: [Option<ChunkRun>; SLOTS],
    /// The run's counters beside the stages' own (in `buffers.work`).
    chunk_work: ChunkWork,
    items: u64,
    launch_depth: u32,
    counted_the_root: bool,
    /// Every chunk run, in order.
    pub chunks: Vec<ChunkRecord>,
}

impl TwinExecutor {
    /// Chunk buffers of `capacity` positions (as the device's without a table), parts of
    /// `part_positions` positions (rounded up to workgroups), no device time.
    pub fn new(capacity: u32, part_positions: u32) -> TwinExecutor {
        let inner_capacity = inner_positions(u64::from(capacity)) as u32;
        TwinExecutor {
            capacity,
            inner_capacity,
            part_positions: part_positions.div_ceil(WORKGROUP_SIZE).max(1) * WORKGROUP_SIZE,
            time_per_position: Duration::ZERO,
            buffers: TwinBuffers::new(capacity, inner_capacity),
            table: None,
            slots: [None, None],
            chunk_work: ChunkWork::default(),
            items: 0,
            launch_depth: 0,
            counted_the_root: false,
            chunks: Vec::new(),
        }
    }

    /// Chunks run with `table`: probed and stored as the device's stages do, their levels
    /// deduplicated.
    pub fn with_table(mut self, table: TwinTable) -> TwinExecutor {
        self.table = Some(table);
        self
    }

    /// The run's table, if it has one.
    pub fn table(&self) -> Option<&TwinTable> {
        self.table.as_ref()
    }

    /// Chunks take `time` of simulated device time per position of their levels.
    pub fn with_time_per_position(mut self, time: Duration) -> TwinExecutor {
        self.time_per_position = time;
        self
    }

    /// The stages of a chunk of items `remaining` plies deep.
    fn shape(&self, remaining: u32) -> ChunkShape {
        ChunkShape::new(remaining, self.table.is_some())
    }

    /// What the chunk buffers keep per position, as the device's for the run's table.
    fn layout(&self) -> PositionLayout {
        PositionLayout {
            table: self.table.is_some(),
            fast_counts: self.table.as_ref().is_some_and(TwinTable::certifies),
            move_stats: false,
        }
    }

    /// The work counters of the last run, as the Vulkan backend reports them (submissions and
    /// dispatches counted as the twin ran its stages).
    pub fn work_counters(&self) -> WorkCounters {
        let work = &self.buffers.work;
        let mut counters = WorkCounters {
            leaf_count_ops: u128::from(work.leaf_count_ops) + u128::from(self.counted_the_root),
            null_counted: u128::from(work.null_counted),
            positions_expanded: work.expanded.clone(),
            items: self.items,
            launch_depth: self.launch_depth,
            chunks: Some(ChunkWork {
                duplicates: work.duplicates,
                ..self.chunk_work.clone()
            }),
            ..WorkCounters::default()
        };
        let tt = self.table.as_ref().map(TwinTable::snapshot);
        counters.set_table_counts(tt.as_ref());
        counters
    }

    /// The chunk's items as its level 0, and a fresh `Control` head, its levels holding at
    /// most `capacity` positions.
    fn start_chunk(&mut self, items: &[WorkItem], capacity: u32) {
        for (board, item) in self.buffers.boards.iter_mut().zip(items) {
            *board = board_of(&item.position);
        }
        let control = &mut self.buffers.control;
        *control = Control {
            appended: 0,
            overflow: 0,
            capacity,
            inner_capacity: capacity.min(self.inner_capacity),
            max_groups_x: MAX_GROUPS_X,
            unused: [0; 3],
            levels: control.levels,
        };
        control.levels[0] = Level::new(0, items.len() as u32, MAX_GROUPS_X);
    }

    /// What a chunk of `items` (whole in `slot`, or in parts) that ran with `levels` levels
    /// known gives back, recorded.
    fn end_chunk(&mut self, items: &[WorkItem], levels: u32, slot: Option<usize>) -> ChunkRun {
        let remaining = items[0].remaining;
        let control = self.buffers.control;
        let layout = self.layout();
        let positions =
            count_written_levels(&mut self.chunk_work, layout, &control, remaining, levels);
        let fit = control.overflow == 0;
        if !fit {
            self.chunk_work.overflows += 1;
        }
        self.chunks.push(ChunkRecord {
            items: items.len(),
            remaining,
            whole: slot.is_some(),
            slot,
            fit,
            capacity: control.capacity,
            positions,
        });
        let certify = self.table.as_ref().is_some_and(TwinTable::certifies);
        let buffers = &self.buffers;
        let counts = fit.then(|| {
            (0..items.len())
                .map(|i| {
                    let nodes = u128::from(buffers.counts[i]);
                    let fast = if certify {
                        buffers.fast_counts[i]
                    } else {
                        buffers.counts[i]
                    };
                    Counts {
                        fast_nodes: fast.into(),
                        ..Counts::exact(nodes)
                    }
                })
                .collect()
        });
        ChunkRun {
            counts,
            took: Duration::from_nanos(
                (self.time_per_position.as_nanos() as u64).saturating_mul(positions),
            ),
            positions,
        }
    }

    /// Runs `run` over `positions` positions in parts (at least one, as on the device), each
    /// a submission; false when a part overflowed.
    fn in_parts(
        &mut self,
        positions: u32,
        control: &RunControl<'_>,
        mut run: impl FnMut(&mut TwinBuffers, Option<&TwinTable>, u32, u32),
    ) -> Result<bool, RunError> {
        let mut start = 0;
        loop {
            if control.cancel.load(Ordering::Relaxed) {
                return Err(RunError::Cancelled);
            }
            let part = self.part_positions.min(positions - start);
            run(&mut self.buffers, self.table.as_ref(), start, part);
            self.chunk_work.submissions += 1;
            self.chunk_work.dispatches += 1;
            self.chunk_work.host_waits += 1;
            start += part;
            if self.buffers.control.overflow != 0 {
                return Ok(false);
            }
            if start >= positions {
                return Ok(true);
            }
        }
    }
}

impl Executor for TwinExecutor {
    fn capacity(&self) -> u32 {
        self.capacity
    }

    fn max_chunk_items(&self) -> usize {
        (u64::from(self.capacity) / ITEMS_SHARE) as usize
    }

    fn begin_run(
        &mut self,
        plan: &Plan,
        depth: u32,
        submissions: Submissions,
    ) -> Result<(), RunError> {
        self.buffers.work = Default::default();
        self.chunk_work = ChunkWork {
            chunk_positions: u64::from(self.capacity),
            chunk_bytes: self.layout().chunk_bytes(u64::from(self.capacity)),
            paced: submissions == Submissions::Paced,
            ..ChunkWork::default()
        };
        self.items = plan.items.len() as u64;
        self.launch_depth = plan.launch_depth();
        self.counted_the_root = depth == 1;
        self.chunks.clear();
        Ok(())
    }

    fn submit_whole(
        &mut self,
        slot: usize,
        items: &[WorkItem],
        capacity: u32,
    ) -> Result<(), RunError> {
        let program = self.shape(items[0].remaining).program();
        self.start_chunk(items, capacity);
        let (buffers, table) = (&mut self.buffers, self.table.as_ref());
        let mut dispatches = 0;
        for chunk_step in program {
            let (op, step) = (chunk_step.op, &chunk_step.step);
            let invocations = buffers.indirect_invocations(step.level);
            match op {
                StageOp::Dedup => {
                    dedup_stage(buffers, table, &chunk_step.clear(), invocations);
                    dedup_stage(buffers, table, step, invocations);
                    dispatches += 2;
                }
                StageOp::Expand => {
                    expand(buffers, table, step, invocations);
                    next_level(buffers, &chunk_step.next_level());
                    dispatches += 2;
                }
                StageOp::Leaf => leaf(buffers, table, step, invocations),
                StageOp::ResolveDuplicates => dedup_stage(buffers, table, step, invocations),
                StageOp::Upsweep => upsweep(buffers, table, step, invocations),
            }
            if matches!(
                op,
                StageOp::Leaf | StageOp::ResolveDuplicates | StageOp::Upsweep
            ) {
                dispatches += 1;
            }
        }
        self.chunk_work.submissions += 1;
        self.chunk_work.dispatches += dispatches;
        let run = self.end_chunk(items, items[0].remaining - 1, Some(slot));
        self.slots[slot] = Some(run);
        Ok(())
    }

    fn finish_whole(&mut self, slot: usize, _items: &[WorkItem]) -> Result<ChunkRun, RunError> {
        self.chunk_work.host_waits += 1;
        Ok(self.slots[slot]
            .take()
            .expect("a chunk finished in the slot it was submitted to"))
    }

    fn run_in_parts(
        &mut self,
        items: &[WorkItem],
        control: &RunControl<'_>,
    ) -> Result<ChunkRun, RunError> {
        let program = self.shape(items[0].remaining).program();
        self.start_chunk(items, self.capacity);
        for chunk_step in program {
            let (op, step) = (chunk_step.op, chunk_step.step);
            let positions = self.buffers.control.levels[step.level as usize].count;
            match op {
                // An empty level is not deduplicated, as on the device.
                StageOp::Dedup if positions == 0 => {}
                StageOp::Dedup => {
                    // The set is cleared in the first part's submission, as on the device.
                    let clear = chunk_step.clear();
                    dedup_stage(&mut self.buffers, self.table.as_ref(), &clear, positions);
                    self.in_parts(positions, control, |buffers, table, first, part| {
                        dedup_stage(buffers, table, &from(step, first), part);
                    })?;
                }
                StageOp::Expand => {
                    let fits =
                        self.in_parts(positions, control, |buffers, table, first, part| {
                            expand(buffers, table, &from(step, first), part);
                        })?;
                    if !fits {
                        return Ok(self.end_chunk(items, step.level + 1, None));
                    }
                    next_level(&mut self.buffers, &chunk_step.next_level());
                }
                StageOp::Leaf => {
                    self.in_parts(positions, control, |buffers, table, first, part| {
                        leaf(buffers, table, &from(step, first), part);
                    })?;
                }
                StageOp::ResolveDuplicates => {
                    self.in_parts(positions, control, |buffers, table, first, part| {
                        dedup_stage(buffers, table, &from(step, first), part);
                    })?;
                }
                StageOp::Upsweep => {
                    self.in_parts(positions, control, |buffers, table, first, part| {
                        upsweep(buffers, table, &from(step, first), part);
                    })?;
                }
            }
        }
        self.chunk_work.host_waits += 1;
        Ok(self.end_chunk(items, items[0].remaining - 1, None))
    }

    fn wait_all(&mut self) {
        self.slots = [None, None];
    }

    fn count_split(&mut self, children: usize) {
        self.items = self.items + children as u64 - 1;
    }

    fn report_progress(
        &mut self,
        tally: &Tally,
        _stats: &ScheduleStats,
        control: &RunControl<'_>,
    ) -> Result<(), RunError> {
        let mut sample = tally.progress();
        sample.work = Some(self.work_counters());
        (control.on_progress)(sample);
        Ok(())
    }
}

/// Dedup with the table's keys; a chunk without a table has no dedup steps.
fn dedup_stage(
    buffers: &mut TwinBuffers,
    table: Option<&TwinTable>,
    step: &StepConstants,
    invocations: u32,
) {
    if let Some(table) = table {
        dedup(
            buffers,
            table.zobrist(),
            table.certifies(),
            step,
            invocations,
        );
    }
}

/// `step` from the level's position `first` on: one part of a level.
fn from(step: StepConstants, first: u32) -> StepConstants {
    StepConstants {
        first_invocation: first,
        ..step
    }
}
