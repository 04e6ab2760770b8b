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
use crate::gpu::shader_layout::{DEDUP_CHILDREN, DEDUP_INPUT, DEDUP_SLOTS_PER_POSITION};
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
        let upload_bytes = std::mem::size_of_val(boards) as u64;
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
        let mut first_submission = true;
        while level_remaining(levels.len() - 1) > 2 {
            if control.cancel.load(Ordering::Relaxed) {
                return Err(RunError::Cancelled);
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
                first_invocation: 0,
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
