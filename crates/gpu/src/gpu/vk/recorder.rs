//! Commands recorded into a command buffer through safe methods.
//!
//! Why every method is sound, argued once:
//! - a [`Recorder`] is made only by [`Context::submit`](super::context::Context::submit), which
//!   begins its command buffer before handing it out and ends it after, so every command goes
//!   into a command buffer in the recording state, of the device it is recorded with;
//! - the buffers a command names are borrowed [`GpuBuffer`]s, so they are live when it is
//!   recorded; they stay live until the submission finishes because their owners wait for the
//!   device before dropping them (see `GpuBuffer`'s drop);
//! - every range is checked against its buffer's size, and offsets and sizes against the
//!   alignments Vulkan requires, before it is recorded: a violation panics (a caller's bug)
//!   instead of recording an out-of-bounds command;
//! - the methods that take raw handles (pipelines, layouts, descriptor sets, query pools) are
//!   private to `gpu::vk`, called only by the owners of those handles, which destroy them after
//!   waiting for the device.

use super::buffer::GpuBuffer;
use ash::vk;

/// Vulkan's limit on the bytes of one `vkCmdUpdateBuffer`.
const MAX_UPDATE_BYTES: usize = 65_536;

/// The stages and accesses every barrier orders: compute shaders, transfers and the indirect
/// dispatches that read their workgroup counts from a buffer.
const STAGES: vk::PipelineStageFlags = vk::PipelineStageFlags::from_raw(
    vk::PipelineStageFlags::COMPUTE_SHADER.as_raw()
        | vk::PipelineStageFlags::TRANSFER.as_raw()
        | vk::PipelineStageFlags::DRAW_INDIRECT.as_raw(),
);

/// A command buffer in the recording state, borrowed for the duration of one recording.
pub struct Recorder<'a> {
    device: &'a ash::Device,
    command_buffer: vk::CommandBuffer,
}

impl<'a> Recorder<'a> {
    /// `command_buffer` must be recording, on `device`, until the recorder is dropped.
    pub(super) fn new(device: &'a ash::Device, command_buffer: vk::CommandBuffer) -> Recorder<'a> {
        Recorder {
            device,
            command_buffer,
        }
    }

    /// Records zeroing the whole of `buffer`.
    pub fn fill_zero(&self, buffer: &GpuBuffer) {
        // SAFETY: see the module's documentation; the whole size is always valid.
        unsafe {
            self.device
                .cmd_fill_buffer(self.command_buffer, buffer.buffer, 0, vk::WHOLE_SIZE, 0)
        };
    }

    /// Records zeroing `bytes` of `buffer` from `offset` on (both multiples of 4).
    pub fn fill_zero_range(&self, buffer: &GpuBuffer, offset: u64, bytes: u64) {
        assert!(
            offset.is_multiple_of(4) && bytes.is_multiple_of(4),
            "a fill of {bytes} bytes at {offset} is not 4-byte aligned"
        );
        assert_in_bounds("fill", buffer, offset, bytes);
        if bytes == 0 {
            return;
        }
        // SAFETY: see the module's documentation; the range was checked above.
        unsafe {
            self.device
                .cmd_fill_buffer(self.command_buffer, buffer.buffer, offset, bytes, 0)
        };
    }

    /// Records writing `data` (a multiple of 4 bytes, at most 64 KiB) into `buffer` at `offset`
    /// (a multiple of 4); the bytes are copied into the command buffer now.
    pub fn update(&self, buffer: &GpuBuffer, offset: u64, data: &[u8]) {
        assert!(
            offset.is_multiple_of(4)
                && data.len().is_multiple_of(4)
                && data.len() <= MAX_UPDATE_BYTES,
            "an update of {} bytes at {offset} is not 4-byte aligned or over 64 KiB",
            data.len()
        );
        assert_in_bounds("update", buffer, offset, data.len() as u64);
        if data.is_empty() {
            return;
        }
        // SAFETY: see the module's documentation; the range and sizes were checked above.
        unsafe {
            self.device
                .cmd_update_buffer(self.command_buffer, buffer.buffer, offset, data)
        };
    }

    /// Records a copy of `bytes` of `source` from `source_offset` on into `target` from
    /// `target_offset` on.
    pub fn copy(
        &self,
        source: &GpuBuffer,
        source_offset: u64,
        target: &GpuBuffer,
        target_offset: u64,
        bytes: u64,
    ) {
        assert_in_bounds("copy source", source, source_offset, bytes);
        assert_in_bounds("copy target", target, target_offset, bytes);
        // Vulkan forbids empty regions; a copy of nothing records nothing.
        if bytes == 0 {
            return;
        }
        let region = [vk::BufferCopy::default()
            .src_offset(source_offset)
            .dst_offset(target_offset)
            .size(bytes)];
        // SAFETY: see the module's documentation; both ranges were checked above.
        unsafe {
            self.device
                .cmd_copy_buffer(self.command_buffer, source.buffer, target.buffer, &region)
        };
    }

    /// Records a barrier that orders earlier commands (of this and earlier submissions of the
    /// queue) before later ones and makes their writes visible to later shader reads and
    /// writes, transfers and indirect dispatches.
    pub fn barrier(&self) {
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(
                vk::AccessFlags::SHADER_READ
                    | vk::AccessFlags::SHADER_WRITE
                    | vk::AccessFlags::TRANSFER_READ
                    | vk::AccessFlags::TRANSFER_WRITE
                    | vk::AccessFlags::INDIRECT_COMMAND_READ,
            )];
        self.memory_barrier(STAGES, STAGES, &barrier);
    }

    /// Records a barrier that makes every shader and transfer write before it available to the
    /// host, so mapped reads after the submission's fence see them (host-visible memory here is
    /// always host-coherent: gpu-allocator asks for it). Host writes need no barrier: a queue
    /// submission makes the host writes before it visible to the device.
    pub(super) fn host_read_barrier(&self) {
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        self.memory_barrier(
            vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::HOST,
            &barrier,
        );
    }

    fn memory_barrier(
        &self,
        source_stages: vk::PipelineStageFlags,
        target_stages: vk::PipelineStageFlags,
        barrier: &[vk::MemoryBarrier],
    ) {
        // SAFETY: see the module's documentation; a memory barrier names no resource.
        unsafe {
            self.device.cmd_pipeline_barrier(
                self.command_buffer,
                source_stages,
                target_stages,
                vk::DependencyFlags::empty(),
                barrier,
                &[],
                &[],
            )
        };
    }

    /// Records resetting `count` queries of `pool` from `first` on; the pool must be live and
    /// hold them.
    pub(super) fn reset_queries(&self, pool: vk::QueryPool, first: u32, count: u32) {
        // SAFETY: see the module's documentation; the context passes its own timestamp pool.
        unsafe {
            self.device
                .cmd_reset_query_pool(self.command_buffer, pool, first, count)
        };
    }

    /// Records writing a timestamp into `query` of `pool` once every earlier command of the
    /// queue has finished; the pool must be live, of timestamps, and hold the query.
    pub(super) fn write_timestamp(&self, pool: vk::QueryPool, query: u32) {
        // SAFETY: as in `reset_queries`.
        unsafe {
            self.device.cmd_write_timestamp(
                self.command_buffer,
                vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                pool,
                query,
            )
        };
    }

    /// Binds a compute `pipeline` and `set` (set 0 of `layout`); all three must be live.
    pub(super) fn bind_compute(
        &self,
        pipeline: vk::Pipeline,
        layout: vk::PipelineLayout,
        set: vk::DescriptorSet,
    ) {
        // SAFETY: see the module's documentation; `Pipelines` passes the handles it owns.
        unsafe {
            self.device.cmd_bind_pipeline(
                self.command_buffer,
                vk::PipelineBindPoint::COMPUTE,
                pipeline,
            );
            self.device.cmd_bind_descriptor_sets(
                self.command_buffer,
                vk::PipelineBindPoint::COMPUTE,
                layout,
                0,
                &[set],
                &[],
            );
        }
    }

    /// Records `constants` as the compute push constants of `layout` from offset 0; the layout
    /// must be live and its range must hold them.
    pub(super) fn push_constants(&self, layout: vk::PipelineLayout, constants: &[u8]) {
        assert!(
            constants.len().is_multiple_of(4),
            "push constants in whole words"
        );
        // SAFETY: as in `bind_compute`.
        unsafe {
            self.device.cmd_push_constants(
                self.command_buffer,
                layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                constants,
            )
        };
    }

    /// Records a dispatch of `groups` workgroups of the bound pipeline.
    pub(super) fn dispatch(&self, groups: u32) {
        // SAFETY: see the module's documentation; `Pipelines` binds before it dispatches.
        unsafe { self.device.cmd_dispatch(self.command_buffer, groups, 1, 1) };
    }

    /// Records a dispatch of the bound pipeline whose workgroup counts the device reads, when
    /// it runs, from the `VkDispatchIndirectCommand` at `offset` (a multiple of 4) in `buffer`.
    pub(super) fn dispatch_indirect(&self, buffer: &GpuBuffer, offset: u64) {
        let command_bytes = size_of::<vk::DispatchIndirectCommand>() as u64;
        assert!(
            offset.is_multiple_of(4),
            "an indirect dispatch at {offset} is unaligned"
        );
        assert_in_bounds("indirect dispatch", buffer, offset, command_bytes);
        // SAFETY: as in `dispatch`; the command lies in the buffer (checked above).
        unsafe {
            self.device
                .cmd_dispatch_indirect(self.command_buffer, buffer.buffer, offset)
        };
    }
}

/// Panics unless `buffer` holds `bytes` bytes from `offset` on.
fn assert_in_bounds(command: &str, buffer: &GpuBuffer, offset: u64, bytes: u64) {
    assert!(
        offset
            .checked_add(bytes)
            .is_some_and(|end| end <= buffer.size),
        "a {command} of {bytes} bytes at {offset} overruns its buffer of {} bytes",
        buffer.size
    );
}
