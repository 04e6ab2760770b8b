//! The work counters of a GPU run: the shaders' (leaf count-ops, expanded positions,
//! duplicates; `glsl/common/work.glsl`) read back with each chunk, and the host's (positions
//! each chunk wrote, submissions, waits, overflows).

use super::buffers::mapped_bytes;
use super::host_work::HostWork;
use super::DeviceRunner;
use crate::gpu::error::GpuError;
use crate::gpu::layouts::Control;
use crate::gpu::level_work::count_written_levels;
use crate::gpu::scheduler::ScheduleStats;
use crate::gpu::shader_layout::{
    WORK_DEPTHS, WORK_DUPLICATES, WORK_EXPANDED, WORK_LEAF_COUNT_OPS, WORK_NULL_COUNTED,
};
use crate::gpu::vk::context::SLOTS;
use crate::gpu::vk::recorder::Recorder;
use crate::tt::TtStatsSnapshot;
use crate::work_counters::{ChunkWork, WorkCounters};

impl DeviceRunner {
    /// Starts the counters of a perft of `depth` whose plan has `items` items `launch_depth`
    /// plies deep, its chunks `paced` or not: the device's cleared, and every slot's readback
    /// with them.
    pub(super) fn begin_work(
        &mut self,
        depth: u32,
        items: u64,
        launch_depth: u32,
        paced: bool,
    ) -> Result<(), GpuError> {
        self.host_work = HostWork {
            chunks: ChunkWork {
                chunk_positions: u64::from(self.capacity),
                chunk_bytes: self.layout.chunk_bytes(u64::from(self.capacity)),
                chunk_segments: self.chunk_segments() as u64,
                paced,
                ..ChunkWork::default()
            },
            items,
            launch_depth,
            counted_the_root: depth == 1,
            waits_before: self.context.host_waits(),
            dispatches_before: self.pipelines.dispatches(),
            ..HostWork::default()
        };
        self.context.submit_and_wait(|recorder| {
            recorder.fill_zero(&self.buffers.work);
            recorder.barrier();
            for slot in 0..SLOTS {
                self.record_work_readback(recorder, slot);
            }
        })?;
        Ok(())
    }

    /// Records the copy of the work counters to `slot`'s readback.
    pub(super) fn record_work_readback(&self, recorder: &Recorder, slot: usize) {
        let work = &self.buffers.work;
        let readback = &self.buffers.slots[slot].work_readback;
        recorder.copy(work, 0, readback, 0, work.size);
    }

    /// A chunk of items `remaining` plies deep ended in `slot` with `control` (overflowed or
    /// not), whose first `levels` levels are known (see [`count_written_levels`]).
    pub(super) fn count_chunk_work(
        &mut self,
        slot: usize,
        control: &Control,
        remaining: u32,
        levels: u32,
    ) {
        let work = &mut self.host_work;
        work.slot = slot;
        work.last_chunk_positions =
            count_written_levels(&mut work.chunks, self.layout, control, remaining, levels);
    }

    /// The counters of the run (as of its newest finished chunk, while it runs), with the
    /// table's statistics `tt` already read back and the scheduler's `stats`.
    pub(crate) fn work_counters_during(
        &self,
        tt: Option<&TtStatsSnapshot>,
        stats: &ScheduleStats,
    ) -> Result<WorkCounters, GpuError> {
        let host = &self.host_work;
        let words: Vec<u32> = bytemuck::pod_collect_to_vec(mapped_bytes(
            &self.buffers.slots[host.slot].work_readback,
        )?);
        let counter = |word: u32| {
            let word = word as usize;
            u64::from(words[word]) | u64::from(words[word + 1]) << 32
        };
        let mut work = WorkCounters {
            leaf_count_ops: u128::from(counter(WORK_LEAF_COUNT_OPS))
                + u128::from(host.counted_the_root),
            null_counted: u128::from(counter(WORK_NULL_COUNTED)),
            items: host.items,
            launch_depth: host.launch_depth,
            chunks: Some(ChunkWork {
                duplicates: counter(WORK_DUPLICATES),
                submissions: self.host_work.submissions,
                dispatches: self.pipelines.dispatches() - host.dispatches_before,
                host_waits: self.context.host_waits() - host.waits_before,
                overflows: stats.overflows,
                ..host.chunks.clone()
            }),
            ..WorkCounters::default()
        };
        for depth in 0..WORK_DEPTHS {
            work.positions_expanded
                .add(depth, counter(WORK_EXPANDED + 2 * depth));
        }
        work.set_table_counts(tt);
        Ok(work)
    }
}
