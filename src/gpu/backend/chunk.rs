//! One chunk on the GPU: the items' subtrees level by level (`expand`), the last two plies in
//! the fused `leaf` stage, then `upsweep` back to the items, and the copies in and out.

use super::buffers::{mapped_bytes, read_mapped, write_mapped};
use super::VulkanBackend;
use crate::count::Counts;
use crate::engine::RunError;
use crate::gpu::buffer::{record_copy, GpuBuffer};
use crate::gpu::error::GpuError;
use crate::gpu::layouts::{Control, GpuBoard, GpuU128, StepConstants};
use crate::gpu::pipelines::{record_barrier, Stage};
use crate::gpu::shader_layout::{
    DEDUP_CHILDREN, DEDUP_INPUT, DEDUP_OUTPUT, DEDUP_SLOTS_PER_POSITION,
};
use crate::run_control::RunControl;
use crate::tt::{TtMode, MIN_TT_DEPTH};
use ash::vk;
use std::sync::atomic::Ordering;

impl VulkanBackend {
    /// Counts the subtrees of `boards`, all `remaining` (>= 1) plies deep; `None` when a level
    /// did not fit.
    pub(super) fn run_chunk(
        &mut self,
        boards: &[GpuBoard],
        remaining: u32,
        control: &RunControl<'_>,
    ) -> Result<Option<Vec<Counts>>, RunError> {
        let count = boards.len() as u32;
        write_mapped(&mut self.buffers.upload, bytemuck::cast_slice(boards))?;
        // Copied to the boards buffer at the start of the chunk's first submission.
        let mut upload = Some(std::mem::size_of_val(boards) as u64);
        // (offset, count) of every level; level 0 is the chunk itself, level k is
        // `remaining - k` plies deep.
        let mut levels: Vec<(u32, u32)> = vec![(0, count)];
        let level_remaining = |level: usize| remaining - level as u32;
        // With a table, every level but the chunk's own (whose counts go back to the host) is
        // deduplicated before it is searched.
        let with_table = self.tt.table.is_some();
        let deduplicated =
            |level: usize| with_table && level > 0 && level_remaining(level) >= MIN_TT_DEPTH;
        let input_dedup = |level: usize| if deduplicated(level) { DEDUP_INPUT } else { 0 };
        // The expand of a level before a deduplicated one hands each child its hash.
        let output_dedup = |level: usize| {
            if deduplicated(level + 1) {
                DEDUP_OUTPUT
            } else {
                0
            }
        };
        while level_remaining(levels.len() - 1) > 2 {
            let level = levels.len() - 1;
            let (offset, level_count) = levels[level];
            let output_offset = offset + level_count;
            let step = StepConstants {
                input_offset: offset,
                input_count: level_count,
                output_offset,
                output_capacity: self.capacity - output_offset,
                remaining: level_remaining(level),
                dedup: input_dedup(level) | output_dedup(level),
                first_invocation: 0,
            };
            if step.dedup != 0 {
                self.dedup_level(&step, &mut upload, control)?;
            }
            let fits = self.submit_level(
                Stage::Expand,
                &step,
                control,
                |backend, device, cb| {
                    if let Some(bytes) = upload.take() {
                        backend.record_upload(device, cb, bytes);
                    }
                    // SAFETY: the control buffer is live; the command buffer is recording.
                    unsafe {
                        device.cmd_fill_buffer(
                            cb,
                            backend.buffers.control.buffer,
                            0,
                            vk::WHOLE_SIZE,
                            0,
                        )
                    };
                    record_barrier(device, cb);
                },
                |backend, device, cb| {
                    record_barrier(device, cb);
                    let buffers = &backend.buffers;
                    let bytes = size_of::<Control>() as u64;
                    record_copy(
                        device,
                        cb,
                        &buffers.control,
                        &buffers.control_readback,
                        bytes,
                        0,
                    );
                },
                // A part that overflowed ends the level: the chunk is redone smaller.
                |backend| Ok(backend.read_control()?.overflow == 0),
            )?;
            if !fits {
                return Ok(None);
            }
            let control_block = self.read_control()?;
            levels.push((output_offset, control_block.appended));
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
            self.dedup_level(&leaf, &mut upload, control)?;
        }
        let with_upload = |backend: &Self, device: &ash::Device, cb: vk::CommandBuffer| {
            if let Some(bytes) = upload {
                backend.record_upload(device, cb, bytes);
            }
        };
        self.submit_level(
            Stage::Leaf,
            &leaf,
            control,
            with_upload,
            no_commands,
            |_| Ok(true),
        )?;
        for (level, &(offset, level_count)) in levels.iter().enumerate().rev().skip(1) {
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
            self.submit_level(
                Stage::Upsweep,
                &up,
                control,
                no_commands,
                no_commands,
                |_| Ok(true),
            )?;
        }
        let certify = self
            .tt
            .table
            .as_ref()
            .is_some_and(|table| table.config().mode == TtMode::Certify);
        self.context.submit_and_wait(|device, cb| {
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

    /// Dispatches `stage` over the `step.input_count` positions of a level in parts the pacer
    /// sizes, one submission each (at least one, so that `prologue` runs for an empty level
    /// too); `prologue` is recorded at the start of the first, `epilogue` after every part's
    /// dispatch. Cancellation is checked before every part, and `keep_going` after each:
    /// `Ok(false)` when it stopped the level.
    ///
    /// Stopping between parts stores nothing partial in the table: every count a part stores
    /// is complete (a leaf's own two plies, or an upsweep over children that all finished).
    fn submit_level(
        &mut self,
        stage: Stage,
        step: &StepConstants,
        control: &RunControl<'_>,
        prologue: impl FnOnce(&Self, &ash::Device, vk::CommandBuffer),
        epilogue: impl Fn(&Self, &ash::Device, vk::CommandBuffer),
        keep_going: impl Fn(&Self) -> Result<bool, GpuError>,
    ) -> Result<bool, RunError> {
        let mut prologue = Some(prologue);
        let mut start = 0;
        loop {
            if control.cancel.load(Ordering::Relaxed) {
                return Err(RunError::Cancelled);
            }
            let positions = self
                .pacer
                .part_positions(stage)
                .min(step.input_count - start);
            let part = StepConstants {
                first_invocation: start,
                ..*step
            };
            let first = prologue.take();
            let took = self.context.submit_and_wait(|device, cb| {
                if let Some(first) = first {
                    first(self, device, cb);
                }
                self.pipelines.record_dispatch(cb, stage, &part, positions);
                epilogue(self, device, cb);
            })?;
            self.pacer.record(stage, positions, took);
            self.schedule.submissions += 1;
            self.schedule.longest_submission = self.schedule.longest_submission.max(took);
            start += positions;
            if !keep_going(self)? {
                return Ok(false);
            }
            if start >= step.input_count {
                return Ok(true);
            }
        }
    }

    /// Deduplicates the level `step` reads: the dedup set is cleared, then each position marks
    /// itself if an equal one claimed its slot before it (`upload` goes first if still due).
    fn dedup_level(
        &mut self,
        step: &StepConstants,
        upload: &mut Option<u64>,
        control: &RunControl<'_>,
    ) -> Result<(), RunError> {
        if step.input_count == 0 {
            return Ok(());
        }
        let set_bytes = u64::from(step.input_count * DEDUP_SLOTS_PER_POSITION) * 4;
        let clear_set = |backend: &Self, device: &ash::Device, cb: vk::CommandBuffer| {
            if let Some(bytes) = upload.take() {
                backend.record_upload(device, cb, bytes);
            }
            // SAFETY: the dedup buffer is live and holds this many slots (it is sized for the
            // capacity); the command buffer is recording.
            unsafe { device.cmd_fill_buffer(cb, backend.buffers.dedup.buffer, 0, set_bytes, 0) };
            record_barrier(device, cb);
        };
        self.submit_level(Stage::Dedup, step, control, clear_set, no_commands, |_| {
            Ok(true)
        })?;
        Ok(())
    }

    /// The append counter and overflow flag as the last expand submission left them.
    pub(super) fn read_control(&self) -> Result<Control, GpuError> {
        read_mapped(&self.buffers.control_readback)
    }

    /// Records a copy of the first `values` 128-bit values of `source` to the host-visible
    /// readback buffer, from its value `at` on.
    pub(super) fn record_readback(
        &self,
        device: &ash::Device,
        cb: vk::CommandBuffer,
        source: &GpuBuffer,
        values: u32,
        at: u32,
    ) {
        let value_bytes = size_of::<GpuU128>() as u64;
        record_copy(
            device,
            cb,
            source,
            &self.buffers.readback,
            u64::from(values) * value_bytes,
            u64::from(at) * value_bytes,
        );
    }

    /// `values` 128-bit values copied by [`Self::record_readback`] from value `at` on.
    pub(super) fn read_back(&self, values: u32, at: u32) -> Result<Vec<GpuU128>, GpuError> {
        let bytes = mapped_bytes(&self.buffers.readback)?;
        let value_bytes = size_of::<GpuU128>();
        let start = at as usize * value_bytes;
        Ok(bytemuck::pod_collect_to_vec(
            &bytes[start..start + values as usize * value_bytes],
        ))
    }

    /// Records the copy of `bytes` of uploaded boards to the start of the boards buffer.
    pub(super) fn record_upload(&self, device: &ash::Device, cb: vk::CommandBuffer, bytes: u64) {
        record_copy(
            device,
            cb,
            &self.buffers.upload,
            &self.buffers.boards,
            bytes,
            0,
        );
        record_barrier(device, cb);
    }
}

/// Records nothing: for a level with no commands around its dispatches.
fn no_commands(_: &VulkanBackend, _: &ash::Device, _: vk::CommandBuffer) {}
