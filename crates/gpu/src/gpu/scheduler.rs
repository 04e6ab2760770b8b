//! The chunk scheduler: which items go to the device together, whole or in parts, in which slot,
//! and what happens when a chunk does not fit. It decides; an [`Executor`] runs the chunks (the
//! Vulkan backend on a device, [`crate::gpu::twin`] on the CPU over the same buffer layouts), so
//! every decision and the counters it leads to are tested on any machine.
//!
//! - **Host plan**: the host expands the top plies down to a launch depth chosen from the
//!   chunk capacity, merging transpositions after every ply ([`launch_depth`]).
//! - **Chunk sizes**: chunks hold items of one depth; paced, they start at one item and are
//!   sized to take about [`CHUNK_TARGET`]; whole, they start at what the launch depth was
//!   chosen for and double after every chunk that fit; in both, at most half the capacity at
//!   the positions per item of the last chunk of that depth.
//! - **Whole or in parts**: a chunk whose device time, predicted from the last chunk of its
//!   depth ([`ChunkPacer`]), fits a submission goes whole, two at a time in [`SLOTS`]
//!   slots taken in turn: while one runs the next is queued. Others go in parts.
//! - **Overflow**: a chunk that did not fit goes back to the queue and chunks halve; a single
//!   item of a paced whole chunk goes in parts next; a single item that did not fit in parts
//!   is expanded one ply on the host (a host split), its children merged into waiting items.

use crate::backend::plan::{Plan, Tally, WorkItem};
use crate::backend::run_control::RunControl;
use crate::backend::RunError;
use crate::chess::{NybbleBoard, Position};
use crate::count::Counts;
use crate::gpu::options::Submissions;
use crate::gpu::shader_layout::MAX_LEVELS;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

mod chunk_pacer;

pub use chunk_pacer::{ChunkPacer, SUBMISSION_TARGET};

/// A chunk holds at most this share of the capacity in items (1 / this): on the device, the
/// size of its upload and readback buffers.
pub const ITEMS_SHARE: u64 = 16;
/// Chunks submitted whole at once: one runs while the host queues the next.
pub const SLOTS: usize = 2;
/// The host expands at most this many items (about 150 bytes each) before the device takes over.
const MAX_HOST_ITEMS: usize = 1 << 20;
/// The launch depth leaves room for at least this many items in a chunk ...
const ITEMS_PER_CHUNK_AT_LAUNCH: f64 = 16.0;
/// ... within this share of the chunk buffers (1 / this), so that overflows are rare.
const LAUNCH_CAPACITY_SHARE: f64 = 2.0;
/// A chunk should take about this long, so progress and cancellation stay responsive.
const CHUNK_TARGET: Duration = Duration::from_millis(150);
/// Paced chunks start at one item per run and grow while they are fast: items of a deep run
/// can be large, and the first chunk must not delay progress or cancellation.
const FIRST_CHUNK_ITEMS: usize = 1;

/// How the last run was scheduled: what the memory budget forced. The scheduler counts chunks,
/// overflows, host splits and whole chunks; the executor the submissions and dispatches.
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

/// What one chunk gave back.
#[derive(Clone, Debug)]
pub struct ChunkRun {
    /// Per item, in order; `None` when a level did not fit.
    pub counts: Option<Vec<Counts>>,
    /// Device time of the chunk's submissions.
    pub took: Duration,
    /// Positions in every level of the chunk that are known, its items included.
    pub positions: u64,
}

/// What runs the chunks the scheduler decides on: recording, submission, the slots' buffers,
/// part sizes, and the work counters of what ran.
pub trait Executor {
    /// Positions a chunk's levels can hold together.
    fn capacity(&self) -> u32;
    /// The most items one chunk may hold (its upload and readback buffers).
    fn max_chunk_items(&self) -> usize;
    /// A run of `depth` plies begins with `plan`, its chunks submitted as `submissions` says:
    /// tables and counters are prepared for it.
    fn begin_run(
        &mut self,
        plan: &Plan,
        depth: u32,
        submissions: Submissions,
    ) -> Result<(), RunError>;
    /// Submits `items` (one depth, `remaining` >= 1) whole in `slot`, their levels holding at
    /// most `capacity` positions; [`Executor::finish_whole`] gives their counts.
    fn submit_whole(
        &mut self,
        slot: usize,
        items: &[WorkItem],
        capacity: u32,
    ) -> Result<(), RunError>;
    /// Waits for the chunk of `items` submitted whole in `slot`.
    fn finish_whole(&mut self, slot: usize, items: &[WorkItem]) -> Result<ChunkRun, RunError>;
    /// Runs `items` (one depth, `remaining` >= 1) in parts, looking at `control`'s cancel
    /// flag between them.
    fn run_in_parts(
        &mut self,
        items: &[WorkItem],
        control: &RunControl<'_>,
    ) -> Result<ChunkRun, RunError>;
    /// Waits for every slot: a run that stopped early may have left chunks queued.
    fn wait_all(&mut self);
    /// One item was split on the host into `children` items.
    fn count_split(&mut self, children: usize);
    /// Reports `tally`'s progress with the executor's counters (`stats` the scheduler's).
    fn report_progress(
        &mut self,
        tally: &Tally,
        stats: &ScheduleStats,
        control: &RunControl<'_>,
    ) -> Result<(), RunError>;
}

/// The scheduler's state: what it learned of chunk sizes (kept across runs of a device) and
/// the counts of its decisions in the last run.
#[derive(Clone, Debug)]
pub struct Scheduler {
    submissions: Submissions,
    /// Items per chunk; adapted from chunk to chunk.
    chunk_items: usize,
    pacer: ChunkPacer,
    stats: ScheduleStats,
}

impl Default for Scheduler {
    fn default() -> Scheduler {
        Scheduler::new(Submissions::Paced)
    }
}

impl Scheduler {
    /// A scheduler whose whole chunks follow `submissions` (resolved: never `Auto`).
    pub fn new(submissions: Submissions) -> Scheduler {
        Scheduler {
            submissions,
            chunk_items: FIRST_CHUNK_ITEMS,
            pacer: ChunkPacer::default(),
            stats: ScheduleStats::default(),
        }
    }

    pub fn submissions(&self) -> Submissions {
        self.submissions
    }

    /// The counts of the decisions of the last run (or of the one running).
    pub fn stats(&self) -> ScheduleStats {
        self.stats
    }

    /// Perft of `root` to `depth`, per root move in generation order, by chunks `executor` runs.
    pub fn divide(
        &mut self,
        executor: &mut impl Executor,
        root: &Position,
        depth: u32,
        control: &RunControl<'_>,
    ) -> Result<Vec<(crate::chess::Move, Counts)>, RunError> {
        self.stats = ScheduleStats::default();
        if depth == 0 {
            return Ok(Vec::new());
        }
        // Whole chunks start at what the launch depth was chosen for (more overflowed first).
        self.chunk_items = match self.submissions {
            Submissions::Paced | Submissions::Auto => FIRST_CHUNK_ITEMS,
            Submissions::Whole => ITEMS_PER_CHUNK_AT_LAUNCH as usize,
        };
        let capacity = u64::from(executor.capacity());
        let plan = Plan::expand_merged(root, depth, MAX_HOST_ITEMS, control.cancel, |branching| {
            launch_depth(capacity, branching)
        })?;
        executor.begin_run(&plan, depth, self.submissions)?;
        let mut tally = Tally::new(&plan);
        for (m, counts) in tally.complete_from_the_start() {
            (control.on_root_done)(m, counts);
        }
        let items: VecDeque<WorkItem> = plan.items.into();
        let searched = self.search(executor, items, &mut tally, control);
        // Queued whole chunks finish before the buffers are used again (their counts are
        // complete, so the table stays exact).
        executor.wait_all();
        searched?;
        executor.report_progress(&tally, &self.stats, control)?;
        Ok(tally.into_divide())
    }

    /// Counts `items` chunk by chunk into `tally`: whole chunks two at a time while their size
    /// is known to fit a submission, else one in parts.
    fn search(
        &mut self,
        executor: &mut impl Executor,
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
                let Some(take) = self.next_whole_chunk(executor, &items) else {
                    break;
                };
                let chunk: Vec<WorkItem> = items.drain(..take).collect();
                let capacity = self.whole_chunk_capacity(executor, &chunk);
                executor.submit_whole(next_slot, &chunk, capacity)?;
                queued.push_back(Queued {
                    slot: next_slot,
                    items: chunk,
                });
                next_slot = (next_slot + 1) % SLOTS;
            }
            let (chunk, run, whole) = if let Some(whole) = queued.pop_front() {
                let run = executor.finish_whole(whole.slot, &whole.items)?;
                if run.counts.is_some() {
                    self.stats.whole_chunks += 1;
                }
                (whole.items, run, true)
            } else {
                let remaining = items[0].remaining;
                let take = items
                    .iter()
                    .take(self.chunk_items_for(executor, remaining))
                    .take_while(|item| item.remaining == remaining)
                    .count();
                let chunk: Vec<WorkItem> = items.drain(..take).collect();
                let run = if remaining == 0 {
                    ChunkRun {
                        counts: Some(vec![Counts::exact(1); take]),
                        took: Duration::ZERO,
                        positions: 0,
                    }
                } else {
                    executor.run_in_parts(&chunk, control)?
                };
                (chunk, run, false)
            };
            let remaining = chunk[0].remaining;
            let Some(counts) = run.counts else {
                self.overflowed(executor, chunk, whole, &mut items, tally, control);
                continue;
            };
            self.stats.chunks += 1;
            self.adapt_chunk_size(executor, chunk.len(), run.took);
            self.pacer
                .record_chunk(remaining, chunk.len(), run.positions, run.took, whole);
            for (item, count) in chunk.iter().zip(counts) {
                for (m, counts) in tally.record(item, count) {
                    (control.on_root_done)(m, counts);
                }
            }
            if last_report.elapsed() >= control.progress_interval {
                executor.report_progress(tally, &self.stats, control)?;
                last_report = Instant::now();
            }
        }
        Ok(())
    }

    /// Items `remaining` plies deep the next chunk may hold: the adapted size, within the
    /// upload buffers and a share of the capacity at the positions per item of the last chunk
    /// of that depth (items vary: a chunk predicted to fill it would overflow half the time).
    fn chunk_items_for(&self, executor: &impl Executor, remaining: u32) -> usize {
        let room = f64::from(executor.capacity()) / LAUNCH_CAPACITY_SHARE;
        let fitting = self
            .pacer
            .positions_per_item(remaining)
            .map_or(usize::MAX, |per_item| {
                (room / per_item.max(1.0)).max(1.0) as usize
            });
        self.chunk_items
            .min(executor.max_chunk_items())
            .min(fitting)
    }

    /// Items at the front of `items` that go whole to the device as the next chunk, if they do.
    fn next_whole_chunk(
        &self,
        executor: &impl Executor,
        items: &VecDeque<WorkItem>,
    ) -> Option<usize> {
        let remaining = items.front()?.remaining;
        if remaining == 0 {
            return None;
        }
        let fitting = match self.submissions {
            Submissions::Paced | Submissions::Auto => self.pacer.whole_chunk_items(remaining)?,
            Submissions::Whole => usize::MAX,
        };
        let take = items
            .iter()
            .take(self.chunk_items_for(executor, remaining).min(fitting))
            .take_while(|item| item.remaining == remaining)
            .count();
        Some(take)
    }

    /// The positions a whole chunk of `chunk` may hold: paced, what fits a submission at the
    /// last rate of its depth (a lopsided chunk overflows and is redone smaller rather than
    /// run long); else the capacity.
    fn whole_chunk_capacity(&self, executor: &impl Executor, chunk: &[WorkItem]) -> u32 {
        let capacity = executor.capacity();
        let bound = match self.submissions {
            Submissions::Paced => self.pacer.whole_chunk_positions(chunk[0].remaining),
            _ => None,
        };
        bound.map_or(capacity, |positions| {
            positions.clamp(chunk.len() as u64, u64::from(capacity)) as u32
        })
    }

    /// A chunk (`whole` or in parts) did not fit: its items go back to the front, to be redone
    /// in chunks of half as many items; a single item of a paced whole chunk (whose levels were
    /// bounded by what fits a submission) is redone in parts, and a single item that did not
    /// fit in parts is expanded one ply on the host.
    fn overflowed(
        &mut self,
        executor: &mut impl Executor,
        mut chunk: Vec<WorkItem>,
        whole: bool,
        items: &mut VecDeque<WorkItem>,
        tally: &mut Tally,
        control: &RunControl<'_>,
    ) {
        self.stats.overflows += 1;
        if chunk.len() > 1 {
            self.chunk_items = (chunk.len() / 2).max(1);
        } else if whole && self.submissions == Submissions::Paced {
            self.pacer.overran(chunk[0].remaining);
        } else if let Some(item) = chunk.pop() {
            self.stats.host_splits += 1;
            let children = item.children();
            for (m, counts) in tally.split(&item, &children) {
                (control.on_root_done)(m, counts);
            }
            chunk = merge_into_queue(children, items, tally);
            executor.count_split(chunk.len());
        }
        for item in chunk.into_iter().rev() {
            items.push_front(item);
        }
    }

    /// Paced, chunks are sized to take about [`CHUNK_TARGET`]; whole, a chunk after one that
    /// fit may hold twice as many items, up to what the buffers allow.
    fn adapt_chunk_size(&mut self, executor: &impl Executor, items: usize, took: Duration) {
        let most = executor.max_chunk_items();
        if self.submissions == Submissions::Whole {
            if items >= self.chunk_items {
                self.chunk_items = (self.chunk_items * 2).min(most);
            }
        } else if took > CHUNK_TARGET * 2 {
            self.chunk_items = (items / 2).max(1);
        } else if took < CHUNK_TARGET / 2 && items >= self.chunk_items {
            self.chunk_items = (self.chunk_items * 2).min(most);
        }
    }
}

/// Plies below the items a chunk of `capacity` positions takes: the most whose leaf level,
/// estimated at `branching` children per position (the host's last ply; a table only makes
/// levels smaller), leaves room for [`ITEMS_PER_CHUNK_AT_LAUNCH`] items in a share of the
/// capacity. At least 2: the fused leaf's two plies.
pub fn launch_depth(capacity: u64, branching: f64) -> u32 {
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
