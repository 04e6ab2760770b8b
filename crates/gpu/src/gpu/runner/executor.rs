//! The device runner as the scheduler's executor: chunks recorded and submitted to the device
//! (`chunk.rs`), whole in the scheduler's slots or in parts the runner paces itself, with the
//! work counters of what ran.

use super::DeviceRunner;
use crate::backend::plan::{Plan, Tally, WorkItem};
use crate::backend::run_control::RunControl;
use crate::backend::RunError;
use crate::chess::NybbleBoard;
use crate::gpu::layouts::GpuBoard;
use crate::gpu::options::Submissions;
use crate::gpu::scheduler::{ChunkRun, Executor, ScheduleStats, ITEMS_SHARE};
use crate::gpu::vk::context::SLOTS;
use std::time::Duration;

impl Executor for DeviceRunner {
    fn capacity(&self) -> u32 {
        self.capacity
    }

    /// A share of the capacity: the upload and readback buffers' size.
    fn max_chunk_items(&self) -> usize {
        (u64::from(self.capacity) / ITEMS_SHARE) as usize
    }

    fn begin_run(
        &mut self,
        plan: &Plan,
        depth: u32,
        submissions: Submissions,
    ) -> Result<(), RunError> {
        self.split_table(plan)?;
        let paced = submissions == Submissions::Paced;
        self.begin_work(depth, plan.items.len() as u64, plan.launch_depth(), paced)?;
        Ok(())
    }

    fn submit_whole(
        &mut self,
        slot: usize,
        items: &[WorkItem],
        capacity: u32,
    ) -> Result<(), RunError> {
        self.submit_whole_chunk(slot, &boards_of(items), items[0].remaining, capacity)?;
        Ok(())
    }

    fn finish_whole(&mut self, slot: usize, items: &[WorkItem]) -> Result<ChunkRun, RunError> {
        let took = self.context.wait(slot)?;
        self.host_work.longest_submission = self.host_work.longest_submission.max(took);
        let counts = self.chunk_counts(slot, items.len() as u32, items[0].remaining)?;
        Ok(ChunkRun {
            counts,
            took,
            positions: self.host_work.last_chunk_positions,
        })
    }

    fn run_in_parts(
        &mut self,
        items: &[WorkItem],
        control: &RunControl<'_>,
    ) -> Result<ChunkRun, RunError> {
        self.host_work.chunk_device_time = Duration::ZERO;
        let counts = self.run_chunk_in_parts(&boards_of(items), items[0].remaining, control)?;
        Ok(ChunkRun {
            counts,
            took: self.host_work.chunk_device_time,
            positions: self.host_work.last_chunk_positions,
        })
    }

    fn wait_all(&mut self) {
        for slot in 0..SLOTS {
            let _ = self.context.wait(slot);
        }
    }

    fn count_split(&mut self, children: usize) {
        self.host_work.items = self.host_work.items + children as u64 - 1;
    }

    fn report_progress(
        &mut self,
        tally: &Tally,
        stats: &ScheduleStats,
        control: &RunControl<'_>,
    ) -> Result<(), RunError> {
        let mut sample = tally.progress();
        sample.tt = self.tt_snapshot()?;
        sample.work = Some(self.work_counters_during(sample.tt.as_ref(), stats)?);
        (control.on_progress)(sample);
        Ok(())
    }
}

/// The boards of `items`, as the GPU reads them.
fn boards_of(items: &[WorkItem]) -> Vec<GpuBoard> {
    items
        .iter()
        .map(|item| NybbleBoard::from_position(&item.position).into())
        .collect()
}
