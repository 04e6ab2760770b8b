//! What tests and diagnostics ask of the GPU backend beyond perft: the shaders' view of the
//! shared structs, the hashes they compute, and the table parameters they currently read.

use super::buffers::write_mapped;
use super::VulkanBackend;
use crate::chess::{Hash128, Zobrist};
use crate::gpu::buffer::record_copy;
use crate::gpu::error::GpuError;
use crate::gpu::layouts::{
    tt_params_bytes, ChildRange, Control, GpuBoard, GpuU128, SegmentAddresses, StepConstants,
    TtParamsHead,
};
use crate::gpu::pipelines::{record_barrier, Stage};
use crate::gpu::shader_layout::DEDUP_OUTPUT;
use ash::vk;

impl VulkanBackend {
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
        const PROBED_VALUES: u32 = 25;
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

    /// The children the expand stage writes for `board` at `depth` plies remaining when the
    /// level it writes is deduplicated, each with the hash it hands on (computed from the
    /// parent's, and meant to be `Zobrist::hash(child) ^ zobrist.depth_key(depth - 1)`).
    pub fn child_hashes(
        &mut self,
        zobrist: &Zobrist,
        board: GpuBoard,
        depth: u32,
    ) -> Result<Vec<(GpuBoard, Hash128)>, GpuError> {
        self.upload_zobrist(zobrist)?;
        write_mapped(&mut self.buffers.upload, bytemuck::bytes_of(&board))?;
        let step = StepConstants {
            input_count: 1,
            output_offset: 1,
            output_capacity: self.capacity - 1,
            remaining: depth,
            dedup: DEDUP_OUTPUT,
            ..StepConstants::default()
        };
        let control_bytes = size_of::<Control>() as u64;
        self.context.submit_and_wait(|device, cb| {
            self.record_upload(device, cb, size_of::<GpuBoard>() as u64);
            // SAFETY: the control buffer is live; the command buffer is recording.
            unsafe {
                device.cmd_fill_buffer(cb, self.buffers.control.buffer, 0, vk::WHOLE_SIZE, 0)
            };
            record_barrier(device, cb);
            self.pipelines.record_dispatch(cb, Stage::Expand, &step, 1);
            record_barrier(device, cb);
            let buffers = &self.buffers;
            record_copy(
                device,
                cb,
                &buffers.control,
                &buffers.control_readback,
                control_bytes,
                0,
            );
        })?;
        // The parent and its children, as 128-bit values: two per board, then one per hash.
        let positions = 1 + self.read_control()?.appended;
        let value_bytes = size_of::<GpuU128>() as u64;
        let board_values = 2 * positions;
        self.context.submit_and_wait(|device, cb| {
            let buffers = &self.buffers;
            let board_bytes = u64::from(board_values) * value_bytes;
            record_copy(
                device,
                cb,
                &buffers.boards,
                &buffers.readback,
                board_bytes,
                0,
            );
            let hash_bytes = u64::from(positions) * value_bytes;
            record_copy(
                device,
                cb,
                &buffers.hashes,
                &buffers.readback,
                hash_bytes,
                board_bytes,
            );
        })?;
        let values = self.read_back(board_values + positions, 0)?;
        let (boards, hashes) = values.split_at(board_values as usize);
        Ok(boards
            .chunks_exact(2)
            .zip(hashes)
            .skip(1)
            .map(|(board, hash)| {
                let words = [board[0].low, board[0].high, board[1].low, board[1].high];
                let hash = Hash128 {
                    hi: hash.high,
                    lo: hash.low,
                };
                (GpuBoard { planes: words }, hash)
            })
            .collect())
    }

    /// The head of the table parameters the shaders read now (mode 0: no table), copied back
    /// from device memory.
    pub fn table_params_in_use(&self) -> Result<TtParamsHead, GpuError> {
        let bytes = size_of::<TtParamsHead>();
        self.context.submit_and_wait(|device, cb| {
            record_copy(
                device,
                cb,
                &self.tt.params,
                &self.buffers.readback,
                bytes as u64,
                0,
            );
        })?;
        let words = self.read_back(bytes.div_ceil(size_of::<GpuU128>()) as u32, 0)?;
        Ok(bytemuck::pod_read_unaligned(
            &bytemuck::cast_slice::<GpuU128, u8>(&words)[..bytes],
        ))
    }
}
